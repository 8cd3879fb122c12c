package dev.kernellab.lab;

import dev.kernellab.workloads.LatencyDistribution;
import dev.kernellab.workloads.ProbeResult;
import dev.kernellab.workloads.rtapp.RtAppLogFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code --out DIR}: the whole report of a run in one directory. Every file is first written to
 * a temporary file in DIR and moved onto its name only once all of them are whole, so a failed
 * run leaves DIR as it was; files of DIR that the report does not write are never touched; a
 * symbolic link DIR is written through, its target keeping its owner and mode. DIR must be
 * empty or hold an earlier report ({@value #REPORT}), so that a mistyped {@code --out ~} does not
 * scatter files among a user's own; the files an earlier report wrote and this one does not (a
 * configuration no longer run) are removed, as the earlier report's list of its files
 * ({@value #MANIFEST}) says.
 *
 * <p>Contents: {@code results.json} (as {@code --json}), {@code histogram.txt} (cyclictest's
 * {@code -h} layout, a column per configuration), {@code realfeel-CONFIG.hist} (realfeel's own
 * 0.1 ms histogram, for the realfeel probe), {@code latency-histogram.png}/{@code .svg},
 * {@code latency-over-time.png}/{@code .svg}, and {@code report.html}; for an rt-app file, a
 * directory per configuration, {@code CONFIG/}, with each thread's log in rt-app's own format
 * and name ({@code CONFIG/rt-app-<thread>.log}, {@link RtAppLogFile}), so that a script that
 * reads one rt-app run's logs reads one configuration's. The manifest lists such a file as
 * {@code CONFIG/NAME}, and a directory the report created as {@code CONFIG/}: an earlier
 * report's directory is removed only if it created it and nothing else is left in it.
 */
final class ReportDirectory {

  /** The file that marks a directory as a report this command may write into again. */
  static final String REPORT = "report.html";

  /** The list of the files a report wrote, one name a line. */
  static final String MANIFEST = ".kernel-lab-report";

  private ReportDirectory() {}

  /** Refuses {@code dir} now, before a long run, if the report could not be put there. */
  static void check(String dir) {
    if (dir == null || dir.isBlank()) {
      throw new IllegalArgumentException("--out: an empty directory name");
    }
    Path target = Path.of(dir).toAbsolutePath();
    if (Files.exists(target) && !Files.isDirectory(target)) {
      throw new IllegalArgumentException("--out " + dir + ": exists and is not a directory");
    }
    if (Files.isDirectory(target)) {
      if (!isEmpty(target) && !Files.exists(target.resolve(REPORT))) {
        throw new IllegalArgumentException("--out " + dir + ": not empty and not an earlier kernel-lab report");
      }
      try {
        Files.delete(Files.createTempFile(target, ".kernel-lab", ".probe"));
      } catch (IOException e) {
        throw new IllegalArgumentException("--out " + dir + ": " + OutputFile.reason(e));
      }
      return;
    }
    Path existing = target.getParent();
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing == null || !Files.isDirectory(existing) || !Files.isWritable(existing)) {
      throw new IllegalArgumentException("--out " + dir + ": cannot be created"
          + (existing == null ? "" : " in " + existing + (Files.isDirectory(existing) ? ": permission denied" : ": not a directory")));
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
    Map<String, byte[]> files = new LinkedHashMap<>();
    files.put("results.json", utf8(JsonReport.write(JsonReport.of(base, results))));
    files.put("histogram.txt", utf8(CyclictestHistogram.format(ds,
        buckets != null ? buckets : CyclictestHistogram.autoBuckets(ds))));
    for (ConfigResult r : results) {
      ProbeResult p = r.result().probes().get(0);
      if (p.realfeelBins() != null) {
        files.put("realfeel-" + r.experiment().config() + ".hist", utf8(String.join("\n", p.realfeelBins().lines()) + "\n"));
      }
    }
    files.put("latency-histogram.png", histogram.png());
    files.put("latency-histogram.svg", utf8(histogram.svg()));
    files.put("latency-over-time.png", overTime.png());
    files.put("latency-over-time.svg", utf8(overTime.svg()));
    files.put(REPORT, utf8(HtmlReport.write(base, results, command, histogram, overTime)));
    List<String> subdirs = new ArrayList<>(); // "CONFIG/", in configuration order
    for (ConfigResult r : results) {
      String config = r.experiment().config();
      for (RtAppLogFile log : r.threadLogs()) {
        if (!isPlainName(config)) {
          throw new IllegalArgumentException("--out " + dir + ": configuration '" + config
              + "' cannot name the directory of its rt-app logs");
        }
        if (!subdirs.contains(config + "/")) {
          subdirs.add(config + "/");
        }
        files.put(config + "/" + log.name(), utf8(log.text()));
      }
    }
    List<String> earlier = earlierFiles(target);
    // Nothing the tool did not write is touched: a configuration's directory must be a directory
    // (not a link out of DIR), and a name this report writes that is there already must be one
    // an earlier report wrote.
    for (String d : subdirs) {
      Path p = target.resolve(d);
      if (Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
        throw new IllegalArgumentException("--out " + dir + ": " + d + " is not a directory; it is left as it is");
      }
    }
    for (String name : files.keySet()) {
      if (!name.equals(MANIFEST) && Files.exists(target.resolve(name), LinkOption.NOFOLLOW_LINKS)
          && !earlier.contains(name)) {
        throw new IllegalArgumentException("--out " + dir + ": " + name
            + " is not from an earlier report; it is left as it is");
      }
    }
    // ours: the directories this report creates, and those an earlier report created
    List<String> ownDirs = new ArrayList<>();
    for (String d : subdirs) {
      if (!Files.isDirectory(target.resolve(d)) || earlier.contains(d)) {
        ownDirs.add(d);
      }
    }
    List<String> manifest = new ArrayList<>(files.keySet());
    manifest.addAll(ownDirs);
    manifest.add(MANIFEST);
    files.put(MANIFEST, utf8(String.join("\n", manifest) + "\n"));
    List<String> stale = new ArrayList<>(earlier);
    stale.removeAll(manifest);
    Map<String, Path> written = new LinkedHashMap<>();
    List<Path> created = new ArrayList<>();
    try {
      Files.createDirectories(target);
      for (String d : subdirs) {
        Path p = target.resolve(d);
        if (!Files.isDirectory(p)) {
          created.add(Files.createDirectory(p));
        }
      }
      for (Map.Entry<String, byte[]> f : files.entrySet()) {
        // beside its name, so that the move onto it is atomic
        Path tmp = Files.createTempFile(target.resolve(f.getKey()).getParent(), ".kernel-lab", ".tmp");
        written.put(f.getKey(), tmp);
        Files.write(tmp, f.getValue());
      }
      for (Map.Entry<String, Path> f : written.entrySet()) {
        Files.move(f.getValue(), target.resolve(f.getKey()), StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.ATOMIC_MOVE);
      }
      written.clear();
      created.clear();
      // files before the directories that held them
      // only files and directories that are still what the earlier report left: never through
      // a link, never a file where it made a directory or the other way round
      for (String name : stale) {
        Path p = target.resolve(name);
        if (!name.endsWith("/") && Files.isDirectory(p.getParent(), LinkOption.NOFOLLOW_LINKS)
            && Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
          Files.delete(p);
        }
      }
      for (String name : stale) {
        if (name.endsWith("/") && Files.isDirectory(target.resolve(name), LinkOption.NOFOLLOW_LINKS)) {
          removeIfEmpty(target.resolve(name));
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("--out " + dir + ": " + OutputFile.reason(e));
    } finally {
      for (Path tmp : written.values()) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // the write failed already: that is the error the user gets
        }
      }
      for (Path d : created) {
        removeIfEmpty(d);
      }
    }
    out.println("report written to " + dir + "/" + REPORT);
  }

  /** Removes directory {@code d} if nothing is left in it; leaves it otherwise, or if it is gone. */
  private static void removeIfEmpty(Path d) {
    try {
      Files.deleteIfExists(d);
    } catch (DirectoryNotEmptyException kept) {
      // something the report did not write is in it: it stays
    } catch (IOException ignored) {
      // a directory that cannot be removed stays; the report itself is whole
    }
  }

  /** A name that stays in the directory it is resolved in: not empty, no separator, not . or ... */
  private static boolean isPlainName(String name) {
    return !name.isEmpty() && !name.contains("/") && !name.contains("\\") && !name.equals(".")
        && !name.equals("..");
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** The files an earlier report in {@code dir} wrote, by its manifest; none if there is none. */
  private static List<String> earlierFiles(Path dir) {
    Path manifest = dir.resolve(MANIFEST);
    List<String> out = new ArrayList<>();
    if (!Files.isRegularFile(manifest)) {
      return out;
    }
    try {
      for (String line : Files.readAllLines(manifest, StandardCharsets.UTF_8)) {
        // only names of this directory and of its directories, one level down ("CONFIG/NAME",
        // "CONFIG/"): a manifest is no licence to delete elsewhere
        int slash = line.indexOf('/');
        boolean ok = slash < 0 ? isPlainName(line)
            : isPlainName(line.substring(0, slash))
                && (slash == line.length() - 1 || isPlainName(line.substring(slash + 1)));
        if (ok) {
          out.add(line);
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("--out " + dir + ": " + OutputFile.reason(e));
    }
    return out;
  }

  private static boolean isEmpty(Path dir) {
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
      return !s.iterator().hasNext();
    } catch (IOException e) {
      throw new IllegalArgumentException("--out " + dir + ": " + OutputFile.reason(e));
    }
  }
}
