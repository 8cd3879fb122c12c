package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.spi.KernelPatchProvider;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.SchedulerHost;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Kernel.checkInvariants() finds a lost or duplicated task whatever the scheduler did wrong:
 * a runqueue listing a task twice, a runnable task on no runqueue, a sleeper left queued, or
 * the scheduler's own check failing (the runqueue BUG_ONs of kernel/sched.c, 2.4.17 schedule()
 * and 2.5's runqueue assertions, made exhaustive). Each case is a scheduler that lies about
 * its queues at the seam; the kernel itself is correct.
 */
class KernelInvariantsTests {

  private static final long MS = 1_000_000;

  /** A scheduler whose queue listing is passed through {@code lie}. */
  private static Scheduler lying(UnaryOperator<List<TaskView>> lie, boolean ownCheckFails) {
    return new ForwardingScheduler(new SimpleRoundRobinScheduler()) {
      @Override
      public List<TaskView> queuedTasks() {
        return lie.apply(new ArrayList<>(super.queuedTasks()));
      }

      @Override
      public void checkInvariants() {
        if (ownCheckFails) {
          throw new IllegalStateException("rq->nr_running is 3, 2 queued");
        }
        super.checkInvariants();
      }
    };
  }

  /** A (runnable hog) and S (asleep in a 100 ms nanosleep from t = 0), run 1 ms. */
  private static Kernel run(Scheduler s) {
    KernelPath sleeper = KernelPath.userProgram("S")
        .syscall(KernelPath.path("kernel/timer.c", "sys_nanosleep").sleepFor(100 * MS).build())
        .build();
    Kernel k = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(s)
        .ksoftirqd(false)
        .task(TaskSpec.user("S", sleeper))
        .task(TaskSpec.user("A", RtcProbeRig.userHog()))
        .build();
    k.run(MS);
    return k;
  }

  private static Task named(Kernel k, String comm) {
    return k.allTasks().stream().filter(t -> t.comm().equals(comm)).findFirst().orElseThrow();
  }

  @Test
  void aHealthyKernelPassesItsInvariants() {
    Kernel k = run(new SimpleRoundRobinScheduler());
    k.checkInvariants();
    assertThat(named(k, "S").state()).isEqualTo(TaskState.INTERRUPTIBLE);
    assertThat(k.current(0).comm()).isEqualTo("A");
  }

  @Test
  void aTaskListedTwiceOnTheRunqueuesIsABug() {
    Kernel k = run(lying(l -> {
      l.add(l.get(0));
      return l;
    }, false));
    assertThatThrownBy(k::checkInvariants)
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("BUG: task queued twice: A[2] appears twice on the runqueues");
  }

  @Test
  void aRunnableTaskOnNoRunqueueIsLost() {
    Kernel k = run(lying(l -> new ArrayList<>(), false));
    assertThatThrownBy(k::checkInvariants)
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("BUG: runnable task lost: A[2] is TASK_RUNNING but on no runqueue (current on cpu0)");
  }

  @Test
  void aSleeperLeftOnARunqueueIsABug() {
    Scheduler s = new ForwardingScheduler(new SimpleRoundRobinScheduler()) {
      private SchedulerHost host;

      @Override
      public void attach(SchedulerHost h) {
        host = h;
        super.attach(h);
      }

      @Override
      public List<TaskView> queuedTasks() {
        List<TaskView> l = new ArrayList<>(super.queuedTasks());
        host.allTasks().stream().filter(t -> t.comm().equals("S")).forEach(l::add);
        return l;
      }
    };
    Kernel k = run(s);
    assertThatThrownBy(k::checkInvariants)
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("BUG: sleeper left queued: S[1] is INTERRUPTIBLE, not running and not preempted, but still on a runqueue");
  }

  @Test
  void theSchedulersOwnFailedCheckIsReportedAsABug() {
    Kernel k = run(lying(l -> l, true));
    assertThatThrownBy(k::checkInvariants)
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("BUG: scheduler invariant: java.lang.IllegalStateException: rq->nr_running is 3, 2 queued");
  }

  /** With no scheduler module on kernel-core's class path, a name finds nothing. */
  @Test
  void anUnknownSchedulerOrPatchNameSaysWhatIsKnown() {
    assertThat(SchedulerProvider.all()).isEmpty();
    assertThat(KernelPatchProvider.all()).isEmpty();
    assertThatIllegalArgumentException().isThrownBy(() -> SchedulerProvider.create("o1"))
        .withMessage("unknown scheduler 'o1'; known: none on the class path");
    assertThatIllegalArgumentException().isThrownBy(() -> KernelPatchProvider.create("preempt"))
        .withMessage("unknown patch 'preempt'; known: none on the class path");
  }
}
