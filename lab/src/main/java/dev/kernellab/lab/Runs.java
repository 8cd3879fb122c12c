package dev.kernellab.lab;

import dev.kernellab.kernel.KernelBug;
import dev.kernellab.kernel.spi.Tracer;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Runs experiments for the commands: in parallel (each simulation on one thread), with a
 * progress line on a terminal's standard error, stopping cleanly on Ctrl-C with what was
 * measured so far marked partial; and writes output files whole or not at all.
 */
final class Runs {

  private Runs() {}

  /** Runs {@code experiments} on up to {@code workers} threads; results in the same order. */
  static List<ConfigResult> runAll(List<Experiment> experiments, int workers, boolean quiet, PrintWriter err) {
    ConfigResult[] out = new ConfigResult[experiments.size()];
    execute(experiments, workers, quiet, err, (i, r) -> out[i] = r, null, null);
    return List.of(out);
  }

  /** Runs {@code e} with {@code extra} attached to its kernel (e.g. {@code run --preempt-stats}). */
  static ConfigResult runWith(Experiment e, Tracer extra, boolean quiet, PrintWriter err) {
    ConfigResult[] out = new ConfigResult[1];
    execute(List.of(e), 1, quiet, err, (i, r) -> out[i] = r, null, extra);
    return out[0];
  }

  /**
   * Runs {@code experiments} on up to {@code workers} threads and tells {@code listener} each
   * one's outcome as it finishes: a kernel bug is that cell's outcome, not the end of the others.
   */
  static void runEach(List<Experiment> experiments, int workers, boolean quiet, PrintWriter err,
      SweepEngine.Listener listener) {
    // a sweep keeps every cell and writes no thread logs: they are dropped as each cell ends
    execute(experiments, workers, quiet, err, (i, r) -> listener.finished(new CellOutcome.Done(r.withoutThreadLogs())),
        listener, null);
  }

  /** Where a finished run goes: its index in the list, and its result. */
  private interface Sink {
    void accept(int index, ConfigResult result);
  }

  /**
   * The pool behind both entry points. With {@code bugs} null a kernel bug ends the whole call
   * (the first in list order is rethrown); otherwise it goes to {@code bugs} as that run's outcome.
   * {@code extra}, if not null, is attached to the kernel (one experiment only: a tracer is one
   * kernel's).
   */
  private static void execute(List<Experiment> experiments, int workers, boolean quiet, PrintWriter err,
      Sink sink, SweepEngine.Listener bugs, Tracer extra) {
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch done = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      stop.set(true);
      try {
        done.await(30, java.util.concurrent.TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "kernel-lab-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    AtomicLongArray progress = new AtomicLongArray(experiments.size());
    boolean show = !quiet && isTerminal();
    long wall0 = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(workers, experiments.size())), r -> {
      Thread t = new Thread(r, "kernel-lab-run");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int i = 0; i < experiments.size(); i++) {
        int index = i;
        Experiment e = experiments.get(i);
        futures.add(pool.submit(() -> {
          ConfigResult r;
          try {
            r = ExperimentRunner.run(e, extra, stop::get, t -> {
              progress.set(index, t);
              if (show) {
                showProgress(experiments, progress, wall0, err);
              }
            });
          } catch (KernelBug bug) {
            if (bugs == null) {
              throw bug;
            }
            progress.set(index, e.durationNs());
            bugs.finished(new CellOutcome.Failed(e, CellOutcome.Failure.KERNEL_BUG, bug.getMessage()));
            return;
          }
          sink.accept(index, r);
        }));
      }
      for (Future<?> f : futures) {
        try {
          f.get();
        } catch (ExecutionException ex) {
          if (ex.getCause() instanceof RuntimeException re) {
            throw re;
          }
          throw new IllegalStateException(ex.getCause());
        } catch (InterruptedException ex) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted");
        }
      }
      if (show) {
        err.print("\r" + " ".repeat(100) + "\r");
        err.flush();
      }
    } finally {
      pool.shutdownNow();
      done.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the JVM is already exiting on Ctrl-C: the hook waits for `done`, counted down above
      }
    }
  }

  /** True if standard input and output are a terminal (Java 17: the console exists only then). */
  @SuppressWarnings("SystemConsoleNull") // this project builds for 17, where the test is exact
  private static boolean isTerminal() {
    return System.console() != null;
  }

  /** Time before the progress line appears: a run shorter than this needs none. */
  static final long PROGRESS_AFTER_NS = 2_000_000_000L;

  private static synchronized void showProgress(List<Experiment> es, AtomicLongArray progress, long wall0,
      PrintWriter err) {
    long wall = System.nanoTime() - wall0;
    if (wall < PROGRESS_AFTER_NS) {
      return;
    }
    long done = 0;
    long total = 0;
    for (int i = 0; i < es.size(); i++) {
      done += progress.get(i);
      total += es.get(i).durationNs();
    }
    double factor = (double) done / wall;
    long etaS = done == 0 ? 0 : (long) ((double) (total - done) / done * wall / 1e9);
    int width = 24;
    int filled = (int) (width * done / Math.max(1, total));
    err.printf(Locale.ROOT, "\r[%s%s] %3.0f%%  %s of %s simulated  x%.0f real time  ETA %d:%02d   ",
        "#".repeat(filled), " ".repeat(width - filled), 100.0 * done / total,
        Durations.simulated(done - done % 1_000_000_000L), Durations.simulated(total), factor,
        etaS / 60, etaS % 60);
    err.flush();
  }
}
