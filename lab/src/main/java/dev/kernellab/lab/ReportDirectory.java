package dev.kernellab.lab;

import dev.kernellab.workloads.LatencyDistribution;
import dev.kernellab.workloads.ProbeResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * {@code --out DIR}: the whole report of a run in one directory, written whole or not at all.
 * Everything is written to a temporary directory beside DIR and moved into place; an earlier
 * report in DIR is replaced, any other non-empty DIR is refused before the run starts.
 *
 * <p>Contents: {@code results.json} (as {@code --json}), {@code histogram.txt} (cyclictest's
 * {@code -h} layout, a column per configuration), {@code realfeel-CONFIG.hist} (realfeel's own
 * 0.1 ms histogram, for the realfeel probe), {@code latency-histogram.png}/{@code .svg},
 * {@code latency-over-time.png}/{@code .svg}, and {@code report.html}.
 */
final class ReportDirectory {

  /** The file that marks a directory as a report this command may replace. */
  static final String REPORT = "report.html";

  private ReportDirectory() {}

  /** Refuses {@code dir} now, before a long run, if the report could not be put there. */
  static void check(String dir) {
    Path target = Path.of(dir).toAbsolutePath();
    if (Files.exists(target) && !Files.isDirectory(target)) {
      throw new IllegalArgumentException("--out " + dir + ": exists and is not a directory");
    }
    if (Files.isDirectory(target) && !isEmpty(target) && !Files.exists(target.resolve(REPORT))) {
      throw new IllegalArgumentException("--out " + dir + ": not empty and not an earlier kernel-lab report");
    }
  }

  /** Writes the report of {@code results} to {@code dir}. */
  static void write(String dir, Experiment base, List<ConfigResult> results, String command, Integer buckets,
      PrintWriter out) {
    check(dir);
    Path target = Path.of(dir).toAbsolutePath();
    List<String> names = new ArrayList<>();
    List<LatencyDistribution> ds = new ArrayList<>();
    for (ConfigResult r : results) {
      names.add(r.experiment().config());
      ds.add(r.result().probes().get(0).distribution());
    }
    String probe = results.get(0).result().probes().get(0).name();
    String title = String.format(Locale.ROOT, "%s, %d CPU%s, %s, HZ %d, %s, seed %d", base.workload(),
        base.cpus(), base.cpus() == 1 ? "" : "s", base.scheduler(), base.hz(),
        Durations.simulated(base.durationNs()), base.seed());
    Charts.Chart histogram = Charts.histogram(probe + " latency: " + title, names, ds);
    Charts.Chart overTime = Charts.overTime(probe + " latency over time: " + title, names, ds);
    Path tmp = null;
    try {
      Path parent = target.getParent();
      Files.createDirectories(parent);
      tmp = Files.createTempDirectory(parent, ".kernel-lab-out");
      if (Files.getFileAttributeView(tmp, PosixFileAttributeView.class) != null) {
        // a temporary directory is private; the report is as readable as any file written here
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
      }
      Files.writeString(tmp.resolve("results.json"), JsonReport.write(JsonReport.of(base, results)), StandardCharsets.UTF_8);
      Files.writeString(tmp.resolve("histogram.txt"),
          CyclictestHistogram.format(ds, buckets != null ? buckets : CyclictestHistogram.autoBuckets(ds)),
          StandardCharsets.UTF_8);
      for (ConfigResult r : results) {
        ProbeResult p = r.result().probes().get(0);
        if (p.realfeelBins() != null) {
          Files.write(tmp.resolve("realfeel-" + r.experiment().config() + ".hist"), p.realfeelBins().lines(),
              StandardCharsets.UTF_8);
        }
      }
      Files.write(tmp.resolve("latency-histogram.png"), histogram.png());
      Files.writeString(tmp.resolve("latency-histogram.svg"), histogram.svg(), StandardCharsets.UTF_8);
      Files.write(tmp.resolve("latency-over-time.png"), overTime.png());
      Files.writeString(tmp.resolve("latency-over-time.svg"), overTime.svg(), StandardCharsets.UTF_8);
      Files.writeString(tmp.resolve(REPORT), HtmlReport.write(base, results, command, histogram, overTime),
          StandardCharsets.UTF_8);
      moveIntoPlace(tmp, target);
      tmp = null;
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot write --out " + dir + ": " + e.getMessage());
    } finally {
      if (tmp != null) {
        deleteTree(tmp);
      }
    }
    out.println("report written to " + dir + "/" + REPORT);
  }

  private static void moveIntoPlace(Path tmp, Path target) throws IOException {
    if (Files.isDirectory(target)) {
      // an earlier report or an empty directory: set it aside, put the new one in, drop the old
      Path old = Files.createTempDirectory(target.getParent(), ".kernel-lab-old");
      Files.delete(old);
      Files.move(target, old, StandardCopyOption.ATOMIC_MOVE);
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
      deleteTree(old);
    } else {
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
    }
  }

  private static boolean isEmpty(Path dir) {
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
      return !s.iterator().hasNext();
    } catch (IOException e) {
      throw new IllegalArgumentException("--out " + dir + ": " + e.getMessage());
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // a temporary directory left behind is untidy, not wrong: the report itself is whole
    }
  }
}
