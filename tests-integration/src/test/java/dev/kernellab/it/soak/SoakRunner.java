package dev.kernellab.it.soak;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.DebugChecks;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBug;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelCpu;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.Task;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.paths.Kernel24Paths;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Runs one {@link SoakCase}: composes the kernel (catalog, daemons, the case's scheduler and
 * patches, every debug check on), starts the workload, and runs it in one-second slices,
 * checking after each that the kernel's invariants hold, that the probe and every task of
 * the workload made progress, and that no spinlock stays held without a release. Any exception,
 * kernel bug or failed check ends the run and is reported with the case's coordinates.
 */
final class SoakRunner {

  /** Simulated time between two checks. */
  static final long SLICE_NS = 1_000_000_000L;

  /**
   * How long a runnable task that is on no runqueue may go without CPU time before the soak
   * calls it lost: nothing can pick it, so five simulated seconds is already a hang.
   */
  static final long STALL_NS = 5 * SLICE_NS;

  /**
   * How long any other task of the workload (queued, or asleep) may go without CPU time before
   * the soak calls it starved. Much longer than {@link #STALL_NS} because O(1) lets a queued
   * task wait a long time legally: in 2.5.5 kernel/sched.c a task that used up its slice goes
   * to the expired array and every wake-up ({@code activate_task}) goes to the active one, so
   * sleepers that keep waking keep the active array from emptying (EXPIRED_STARVING only stops
   * expired interactive tasks from going back into active); and a task asleep on a pipe waits
   * as long as its writer does. Under the stress load a CPU hog measured up to 10 s between
   * runs in 60 s. A minute of waiting is a hang, whichever scheduler.
   */
  static final long STARVED_NS = 60 * SLICE_NS;

  private SoakRunner() {}

  /** The outcome of one case. */
  record Result(SoakCase soakCase, String failure, String detail, long wallNs, long events) {
    boolean ok() {
      return failure == null;
    }
  }

  static Result run(SoakCase sc, long timeoutS) {
    long wall0 = System.nanoTime();
    Kernel k = null;
    try {
      Kernel24Paths paths = Kernel24Paths.withDefaults();
      KernelBuilder b =
          new KernelBuilder(MachineSpec.uniprocessor().withCpus(sc.cpus()), sc.seed())
              .scheduler(SchedulerProvider.create(sc.scheduler()))
              .debugChecks(DebugChecks.all());
      paths.install(b);
      paths.installDaemons(b);
      for (String patch : sc.patchSet().patches()) {
        b.patch(patch);
      }
      SoakWorkload.Instance w = SoakWorkload.byName(sc.workload()).install(paths, b, sc.cpus());
      k = b.build();
      w.start(k);
      Map<String, Long> lastRan = new HashMap<>();
      Map<String, Long> lastSeen = new HashMap<>();
      IdentityHashMap<SpinLock, long[]> heldAt = new IdentityHashMap<>();
      long lastProgress = -1;
      long progressAt = 0;
      for (long t = SLICE_NS; t <= sc.simulatedNs(); t += SLICE_NS) {
        if (Thread.interrupted()) {
          return failed(sc, wall0, k, "interrupted", "the soak was stopped");
        }
        if (System.nanoTime() - wall0 > timeoutS * 1_000_000_000L) {
          return failed(sc, wall0, k, "hung: over " + timeoutS + " s of wall time",
              "simulated time reached only " + k.now() + " ns");
        }
        k.run(t);
        k.checkInvariants();
        long p = w.progress();
        if (p != lastProgress) {
          lastProgress = p;
          progressAt = t;
        } else if (t - progressAt >= STALL_NS) {
          return failed(sc, wall0, k, "no progress",
              "the workload's probe saw nothing for " + (t - progressAt) / 1_000_000 + " ms");
        }
        String leaked = leakedLock(k, t, heldAt);
        if (leaked != null) {
          return failed(sc, wall0, k, "lock never released", leaked);
        }
        for (String comm : w.mustRun()) {
          Task task = k.task(comm).orElseThrow();
          if (task == null) {
            return failed(sc, wall0, k, "task gone", comm + " is no longer alive at t=" + t);
          }
          long seen = k.cpuTimeNs(task);
          if (!lastSeen.containsKey(comm) || lastSeen.get(comm) != seen) {
            lastSeen.put(comm, seen);
            lastRan.put(comm, t);
          } else if (t - lastRan.get(comm) >= STALL_NS
              && (t - lastRan.get(comm) >= STARVED_NS || lost(k, task))) {
            return failed(sc, wall0, k, "task starved or lost",
                task + " has not run for " + (t - lastRan.get(comm)) / 1_000_000 + " ms (state "
                    + task.state() + ", cpu " + task.cpu() + ", queued "
                    + k.scheduler().queuedTasks().contains(task) + ")");
          }
        }
      }
      return new Result(sc, null, null, System.nanoTime() - wall0, k.eventsFired());
    } catch (KernelBug e) {
      return failed(sc, wall0, k, e.summary(), e.getMessage() + "\n" + stack(e));
    } catch (RuntimeException | Error e) {
      return failed(sc, wall0, k, e.toString(), stack(e));
    }
  }

  /**
   * A lock some CPU has held, without one release, since a check {@link #STALL_NS} ago: the
   * longest hold of any path is milliseconds, so that is a lock a path forgot. {@code heldAt}
   * keeps, per lock held at the last checks, its acquisition count and when it was first seen.
   */
  static String leakedLock(Kernel k, long now, IdentityHashMap<SpinLock, long[]> heldAt) {
    IdentityHashMap<SpinLock, long[]> still = new IdentityHashMap<>();
    for (int c = 0; c < k.cpuCount(); c++) {
      KernelCpu cpu = k.cpu(c);
      for (int i = 0; i < cpu.heldLockCount(); i++) {
        SpinLock l = cpu.heldLock(i);
        long[] seen = heldAt.get(l);
        if (seen != null && seen[0] == l.acquisitions()) {
          if (now - seen[1] >= STALL_NS) {
            return l.name() + " held by cpu" + c + " since t=" + seen[1] + " ns with no release";
          }
          still.put(l, seen);
        } else {
          still.put(l, new long[] {l.acquisitions(), now});
        }
      }
    }
    heldAt.clear();
    heldAt.putAll(still);
    return null;
  }

  /** Runnable, yet on no runqueue (the running task stays on its runqueue in both schedulers). */
  private static boolean lost(Kernel k, Task task) {
    return task.state() == TaskState.RUNNING && !k.scheduler().queuedTasks().contains(task);
  }

  private static Result failed(SoakCase sc, long wall0, Kernel k, String failure, String detail) {
    long events = k == null ? 0 : k.eventsFired();
    String at = k == null ? "" : " at t=" + k.now() + " ns";
    return new Result(sc, failure + at, detail, System.nanoTime() - wall0, events);
  }

  private static String stack(Throwable e) {
    StringWriter sw = new StringWriter();
    e.printStackTrace(new PrintWriter(sw));
    return sw.toString();
  }
}
