package dev.kernellab.sched.goodness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.ForwardingScheduler;
import dev.kernellab.kernel.spi.MmView;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.SchedulerHost;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A {@link GoodnessScheduler} with an obviously correct reference beside it: every pick is
 * recomputed from the formulas of 2.4.17 kernel/sched.c goodness() and schedule() over the
 * queued tasks in list order, and every wake-up on UP is held to the rule of the UP branch of
 * reschedule_idle() (preemption_goodness() &gt; 0). Used by the property tests; counts the
 * checks it made so a property can show it was not vacuous.
 */
final class ReferenceCheckedScheduler extends ForwardingScheduler {

  private final GoodnessScheduler real;
  private SchedulerHost host;
  private MmView[] activeMm; // the reference's own lazy-TLB bookkeeping
  int picks;
  int recalculationsSeen;
  int rtPicksChecked;
  int wakeUpsChecked;
  int wakeUpsThatPreempted;

  ReferenceCheckedScheduler() {
    this(new GoodnessScheduler());
  }

  private ReferenceCheckedScheduler(GoodnessScheduler real) {
    super(real);
    this.real = real;
  }

  /** The reference goodness(): written from 2.4.17 kernel/sched.c, not from Goodness. */
  int referenceGoodness(TaskView p, int cpu) {
    return p.isIdle() ? referenceGoodness(p, cpu, 0, false)
        : referenceGoodness(p, cpu, GoodnessEntity.of(p).counter(), false);
  }

  /** The reference goodness() with {@code counter}, recalculated first if {@code epochEnd}. */
  private int referenceGoodness(TaskView p, int cpu, int counter, boolean epochEnd) {
    boolean smp = host.cpuCount() > 1;
    int affinity = smp && p.cpu() == cpu ? 15 : 0;
    boolean sameMm = p.mm() == null || Objects.equals(p.mm(), activeMm[cpu]);
    if (p.isIdle()) {
      return -100 + affinity + 1 + (20 - 20);
    }
    if (GoodnessEntity.of(p).schedYield()) {
      return -1;
    }
    if (p.policy().isRealTime()) {
      return 1000 + p.rtPriority();
    }
    int c = epochEnd ? counter / 2 + GoodnessTunables.NICE_TO_TICKS(p.nice(), host.hz()) : counter;
    return c == 0 ? 0 : c + affinity + (sameMm ? 1 : 0) + 20 - p.nice();
  }

  private List<TaskView> candidates(int cpu, TaskView prev) {
    List<TaskView> order = new ArrayList<>(real.queuedTasks());
    GoodnessEntity pe = GoodnessEntity.of(prev);
    if (prev.policy() == SchedPolicy.RR && pe.counter() == 0 && order.remove(prev)) {
      order.add(prev); // SCHED_RR expiry goes to the tail before the walk
    }
    List<TaskView> result = new ArrayList<>();
    for (TaskView t : order) {
      boolean elsewhere = false;
      for (int c = 0; c < host.cpuCount(); c++) {
        elsewhere |= c != cpu && host.current(c) == t;
      }
      if (t.mayRunOn(cpu) && !elsewhere) {
        result.add(t);
      }
    }
    return result;
  }

  private TaskView firstBest(List<TaskView> candidates, int cpu, boolean epochEnd) {
    TaskView best = host.idle(cpu);
    int c = -1000;
    for (TaskView t : candidates) {
      int w = referenceGoodness(t, cpu, GoodnessEntity.of(t).counter(), epochEnd);
      if (w > c) {
        c = w;
        best = t;
      }
    }
    return best;
  }

  private String describe(List<TaskView> cands, int cpu) {
    StringBuilder b = new StringBuilder();
    for (TaskView t : cands) {
      b.append(GoodnessEntity.of(t)).append(" ref=").append(referenceGoodness(t, cpu))
          .append(" real=").append(real.goodness(t, cpu)).append("; ");
    }
    return b.toString();
  }

  @Override
  public TaskView pickNext(int cpu, TaskView prev) {
    List<TaskView> cands = candidates(cpu, prev);
    int max = cands.stream().mapToInt(t -> referenceGoodness(t, cpu)).max().orElse(-1000);
    boolean anyRt = cands.stream().anyMatch(t -> t.policy().isRealTime());
    TaskView expected = firstBest(cands, cpu, max == 0);
    String view = describe(cands, cpu);
    long before = real.recalculations();

    TaskView next = real.pickNext(cpu, prev);

    long recalcs = real.recalculations() - before;
    assertThat(recalcs).as("recalculations when the best goodness is %d", max)
        .isEqualTo(max == 0 ? 1 : 0);
    if (recalcs > 0) {
      recalculationsSeen++;
    }
    if (anyRt) {
      rtPicksChecked++;
      assertThat(next.policy().isRealTime())
          .as("%s picked on cpu%d over a runnable RT task", next, cpu)
          .isTrue();
    }
    assertThat(next).as("pick on cpu%d among %s", cpu, view).isSameAs(expected);
    picks++;
    if (next.mm() != null) {
      activeMm[cpu] = next.mm();
    }
    return next;
  }

  private boolean checkedWakeUp(TaskView p, boolean viaNewTask, boolean sync) {
    boolean up = host.cpuCount() == 1;
    boolean eligible = up && !sync && !GoodnessEntity.of(p).onRunqueue()
        && p.state() != TaskState.ZOMBIE && p.state() != TaskState.DEAD;
    TaskView cur = host.current(0);
    boolean flagBefore = cur.needResched();
    int pg = referenceGoodness(p, 0) - referenceGoodness(cur, 0);
    boolean woken;
    if (viaNewTask) {
      real.wakeUpNewTask(p, p.parent());
      woken = true;
    } else {
      woken = real.tryToWakeUp(p, sync);
    }
    if (eligible && woken) {
      wakeUpsChecked++;
      if (pg > 0) {
        wakeUpsThatPreempted++;
      }
      assertThat(cur.needResched())
          .as("need_resched of %s after waking %s, preemption_goodness %d", cur, p, pg)
          .isEqualTo(pg > 0 || flagBefore);
    }
    return woken;
  }

  @Override
  public boolean tryToWakeUp(TaskView p, boolean sync) {
    return checkedWakeUp(p, false, sync);
  }

  @Override
  public void wakeUpNewTask(TaskView child, TaskView parent) {
    checkedWakeUp(child, true, false);
  }

  @Override
  public void attach(SchedulerHost h) {
    host = h;
    activeMm = new MmView[h.cpuCount()];
    real.attach(h);
  }
}
