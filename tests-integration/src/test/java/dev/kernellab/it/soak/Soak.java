package dev.kernellab.it.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The soak harness: a matrix of {@link SoakCase}s run in parallel (each simulation stays on one
 * thread), a line per finished case, and a report of every failure with its coordinates, its
 * oops and the command that replays it alone.
 */
final class Soak {

  private Soak() {}

  /** Every combination of the given axes, in a fixed order. */
  static List<SoakCase> matrix(
      List<String> schedulers, List<PatchSet> patchSets, List<Integer> cpus, List<Long> seeds,
      List<String> workloads, long simulatedNs) {
    List<SoakCase> out = new ArrayList<>();
    for (String w : workloads) {
      for (long seed : seeds) {
        for (int n : cpus) {
          for (String s : schedulers) {
            for (PatchSet p : patchSets) {
              out.add(new SoakCase(s, p, n, seed, w, simulatedNs));
            }
          }
        }
      }
    }
    return out;
  }

  /** The outcome of a soak. */
  record Summary(List<SoakRunner.Result> results, long wallNs, Path report) {
    List<SoakRunner.Result> failures() {
      return results.stream().filter(r -> !r.ok()).toList();
    }

    /** One line per failure with its replay command, for an assertion message. */
    String failureList() {
      StringBuilder sb = new StringBuilder();
      for (SoakRunner.Result r : failures()) {
        sb.append("\n  ").append(r.soakCase()).append(": ").append(r.failure())
            .append("\n    replay: ").append(r.soakCase().replayCommand());
      }
      sb.append("\n  full reports: ").append(report);
      return sb.toString();
    }
  }

  /**
   * Runs {@code cases} on {@code workers} threads; a case still running after
   * {@code timeoutPerCaseS} wall seconds counts as hung.
   */
  static Summary run(String name, List<SoakCase> cases, int workers, long timeoutPerCaseS) {
    long wall0 = System.nanoTime();
    synchronized (PRINT) {
      finished = 0;
    }
    ExecutorService pool = Executors.newFixedThreadPool(workers, r -> {
      Thread t = new Thread(r, "soak");
      t.setDaemon(true);
      return t;
    });
    if (cases.isEmpty()) {
      throw new IllegalArgumentException("the soak has no case to run: check soak.seeds and the axes");
    }
    List<Future<SoakRunner.Result>> futures = new ArrayList<>();
    long[] startedAt = new long[cases.size()]; // wall ns a worker took case i, 0 before
    for (int i = 0; i < cases.size(); i++) {
      SoakCase c = cases.get(i);
      int index = i;
      futures.add(pool.submit(() -> {
        synchronized (startedAt) {
          startedAt[index] = System.nanoTime();
        }
        SoakRunner.Result r = SoakRunner.run(c, timeoutPerCaseS);
        print(r, cases.size());
        return r;
      }));
    }
    List<SoakRunner.Result> results = new ArrayList<>();
    for (int i = 0; i < cases.size(); i++) {
      results.add(await(futures.get(i), cases.get(i), i, startedAt, timeoutPerCaseS));
    }
    pool.shutdownNow();
    long wall = System.nanoTime() - wall0;
    Path report = writeReport(name, results, wall);
    return new Summary(results, wall, report);
  }

  private static final Object PRINT = new Object();
  private static int finished;

  private static void print(SoakRunner.Result r, int total) {
    synchronized (PRINT) {
      finished++;
      double sim = r.soakCase().simulatedNs() / 1e9;
      double wall = r.wallNs() / 1e9;
      System.out.printf(Locale.ROOT, "[soak %d/%d] %s: %s (%.1f s wall, x%.0f real time)%n",
          finished, total, r.soakCase(), r.ok() ? "ok" : "FAILED " + r.failure(), wall,
          sim / Math.max(wall, 1e-9));
    }
  }

  /**
   * Waits for case {@code i}. A run checks its own wall time between slices; this is the
   * backstop for a slice that never ends, counted from when a worker took the case, with a
   * minute of grace.
   */
  private static SoakRunner.Result await(
      Future<SoakRunner.Result> f, SoakCase c, int i, long[] startedAt, long timeoutS) {
    try {
      while (true) {
        try {
          return f.get(1, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
          long started;
          synchronized (startedAt) {
            started = startedAt[i];
          }
          if (started != 0 && System.nanoTime() - started > (timeoutS + 60) * 1_000_000_000L) {
            f.cancel(true);
            return new SoakRunner.Result(c, "hung: a slice did not end within " + timeoutS
                + " s of wall time", "", System.nanoTime() - started, 0);
          }
        }
      }
    } catch (ExecutionException e) {
      return new SoakRunner.Result(c, e.getCause().toString(), "", 0, 0);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new SoakRunner.Result(c, "interrupted", "", 0, 0);
    }
  }

  private static Path writeReport(String name, List<SoakRunner.Result> results, long wallNs) {
    StringBuilder sb = new StringBuilder();
    long simNs = 0;
    long cpuNs = 0;
    long events = 0;
    int failed = 0;
    for (SoakRunner.Result r : results) {
      simNs += r.soakCase().simulatedNs();
      cpuNs += r.wallNs();
      events += r.events();
      failed += r.ok() ? 0 : 1;
    }
    sb.append(String.format(Locale.ROOT,
        "soak %s: %d runs, %d failed; %.2f simulated hours; %.1f min wall, %.2f CPU-hours; %d events%n%n",
        name, results.size(), failed, simNs / 3.6e12, wallNs / 6e10, cpuNs / 3.6e12, events));
    for (SoakRunner.Result r : results) {
      sb.append(String.format(Locale.ROOT, "%-60s %s%n", r.soakCase(), r.ok() ? "ok" : "FAILED"));
    }
    for (SoakRunner.Result r : results) {
      if (!r.ok()) {
        sb.append("\n==== ").append(r.soakCase()).append('\n')
            .append(r.failure()).append('\n')
            .append("replay: ").append(r.soakCase().replayCommand()).append('\n')
            .append(r.detail()).append('\n');
      }
    }
    Path dir = Path.of("target", "soak");
    Path file = dir.resolve(name + ".txt");
    try {
      Files.createDirectories(dir);
      Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      System.out.println("could not write " + file + ": " + e);
    }
    System.out.print(sb.substring(0, sb.indexOf("\n") + 1));
    return file.toAbsolutePath();
  }
}
