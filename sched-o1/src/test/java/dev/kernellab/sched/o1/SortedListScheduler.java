package dev.kernellab.sched.o1;

import static dev.kernellab.sched.o1.O1Tunables.MAX_PRIO;
import static dev.kernellab.sched.o1.O1Tunables.MAX_RT_PRIO;

import dev.kernellab.kernel.spi.SchedEntity;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.SchedulerHost;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.kernel.spi.TaskView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The obviously correct reference for {@link O1ModelProperties}: the algorithms of 2.5.5
 * kernel/sched.c (with kernel/fork.c's slice split) written again, step by step, on plain lists
 * sorted by (prio, enqueue sequence) instead of bitmaps and intrusive lists. "Head of queue[p]" is
 * the first entry of prio p, "tail" the last, "find first bit" is the first entry; nr_running is
 * computed, never stored. Only the formulas of {@link O1Tunables} are shared (their tables are
 * pinned by {@link O1TunablesTests}).
 */
final class SortedListScheduler implements Scheduler {

  static final class Ref extends SchedEntity {
    int prio;
    int staticPrio;
    int sleepAvg;
    int timeSlice;
    long sleepTimestamp;
    long seq;
    List<Ref> array; // null iff not queued
    boolean yielded; // sched_yield since the last prio recalculation
    Integer migrateTo; // pending set_cpus_allowed of the running task

    Ref(TaskView t) {
      super(t);
    }

    boolean rt() {
      return prio < MAX_RT_PRIO;
    }
  }

  static final class Rq {
    List<Ref> active = new ArrayList<>();
    List<Ref> expired = new ArrayList<>();
    long expiredTimestamp;
    TaskView curr;
    TaskView idle;
    int[] prev;

    int nrRunning() {
      return active.size() + expired.size();
    }
  }

  private static final Comparator<Ref> ORDER =
      Comparator.<Ref>comparingInt(r -> r.prio).thenComparingLong(r -> r.seq);

  private SchedulerHost host;
  private O1Tunables tun;
  private Rq[] rqs;
  private long seq;

  static Ref ref(TaskView t) {
    return (Ref) t.schedEntity();
  }

  Rq rq(int cpu) {
    return rqs[cpu];
  }

  private void enqueue(Ref r, List<Ref> array) {
    r.seq = seq++;
    r.array = array;
    array.add(r);
    array.sort(ORDER);
  }

  private static void dequeue(Ref r) {
    r.array.remove(r);
    r.array = null;
  }

  private void recalc(Ref r) {
    r.prio = tun.effectivePrio(r.staticPrio, r.sleepAvg);
    r.yielded = false;
  }

  private void activate(Ref r, Rq rq) {
    long slept = host.jiffies() - r.sleepTimestamp;
    if (!r.rt() && slept > 0) {
      r.sleepAvg = (int) Math.min(tun.maxSleepAvgTicks(), r.sleepAvg + slept);
      recalc(r);
    }
    enqueue(r, rq.active);
  }

  private void activateAndPreempt(Ref r, int cpu) {
    Rq rq = rqs[cpu];
    activate(r, rq);
    if (rq.curr == rq.idle || r.prio < ref(rq.curr).prio) {
      host.reschedule(cpu);
    }
  }

  @Override
  public String name() {
    return "o1-sorted-lists";
  }

  @Override
  public boolean supportsCpuCount(int cpus) {
    return true;
  }

  @Override
  public void attach(SchedulerHost h) {
    host = h;
    tun = O1Tunables.forHz(h.hz());
    rqs = new Rq[h.cpuCount()];
    for (int c = 0; c < rqs.length; c++) {
      rqs[c] = new Rq();
      rqs[c].prev = new int[rqs.length];
    }
  }

  @Override
  public SchedEntity createEntity(TaskView t) {
    Ref r = new Ref(t);
    r.staticPrio = 120 + t.nice();
    r.prio = t.policy().isRealTime() ? 99 - t.rtPriority() : r.staticPrio;
    r.timeSlice = tun.taskTimeslice(r.staticPrio);
    r.sleepTimestamp = host.jiffies();
    return r;
  }

  @Override
  public void initIdle(TaskView idle, int cpu) {
    ref(idle).prio = MAX_PRIO;
    rqs[cpu].idle = idle;
    rqs[cpu].curr = idle;
    host.setNeedResched(idle, true);
  }

  @Override
  public void fork(TaskView parent, TaskView child) {
    Ref p = ref(parent);
    Ref c = ref(child);
    if (parent.isIdle()) {
      c.sleepTimestamp = host.jiffies();
      return;
    }
    host.setPolicy(child, parent.policy(), parent.rtPriority());
    host.setNice(child, p.staticPrio - 120);
    host.setCpusAllowed(child, parent.cpusAllowed());
    c.prio = parent.inheritedRtPriority() == 0 ? p.prio
        : parent.policy().isRealTime() ? 99 - parent.rtPriority() : tun.effectivePrio(p.staticPrio, p.sleepAvg);
    c.staticPrio = p.staticPrio;
    c.sleepAvg = p.sleepAvg;
    c.yielded = p.yielded;
    int total = p.timeSlice;
    c.timeSlice = total - total / 2;
    p.timeSlice = total / 2;
    if (p.timeSlice == 0) {
      p.timeSlice = 1;
      tick(parent.cpu(), false);
    }
    c.sleepTimestamp = host.jiffies();
  }

  @Override
  public void wakeUpNewTask(TaskView child, TaskView parent) {
    host.setRunning(child);
    if (parent == null || parent.isIdle()) {
      tryToWakeUp(child, false);
      return;
    }
    Ref c = ref(child);
    if (!c.rt()) {
      c.sleepAvg = c.sleepAvg * 95 / 100;
      recalc(c);
    }
    host.setCpu(child, host.thisCpu());
    activate(c, rqs[host.thisCpu()]);
    host.setNeedResched(parent, true);
  }

  @Override
  public boolean tryToWakeUp(TaskView p, boolean sync) {
    if (p.state() == TaskState.ZOMBIE || p.state() == TaskState.DEAD) {
      return false;
    }
    host.setRunning(p);
    if (ref(p).array != null) {
      return false;
    }
    activateAndPreempt(ref(p), p.cpu());
    return true;
  }

  @Override
  public void deactivate(TaskView prev, int cpu) {
    if (ref(prev).array != null) {
      dequeue(ref(prev));
    }
  }

  @Override
  public TaskView pickNext(int cpu, TaskView prev) {
    Rq rq = rqs[cpu];
    Ref pr = ref(prev);
    if (!prev.isIdle()) {
      pr.sleepTimestamp = host.jiffies();
    }
    Integer migrateTo = pr.migrateTo;
    if (migrateTo != null && pr.array != null) {
      dequeue(pr);
    }
    TaskView next;
    while (true) {
      if (rq.nrRunning() == 0) {
        if (rqs.length > 1 && loadBalance(rq, cpu, true) > 0) {
          continue;
        }
        next = rq.idle;
        rq.expiredTimestamp = 0;
        break;
      }
      if (rq.active.isEmpty()) {
        List<Ref> a = rq.active;
        rq.active = rq.expired;
        rq.expired = a;
        rq.expiredTimestamp = 0;
      }
      next = rq.active.get(0).task();
      break;
    }
    rq.curr = next;
    if (migrateTo != null) {
      pr.migrateTo = null;
      host.setCpu(prev, migrateTo);
      if (prev.state() == TaskState.RUNNING) {
        activateAndPreempt(pr, migrateTo);
      }
    }
    return next;
  }

  @Override
  public long scheduleCostNs(int cpu) {
    return 0;
  }

  @Override
  public long wakeUpCostNs() {
    return 0;
  }

  @Override
  public void tick(int cpu, boolean userTick) {
    Rq rq = rqs[cpu];
    long j = host.jiffies();
    if (rq.curr == rq.idle) {
      if (rqs.length > 1 && j % tun.idleRebalanceTicks() == 0) {
        loadBalance(rq, cpu, true);
      }
      return;
    }
    Ref p = ref(rq.curr);
    if (p.array != rq.active) {
      host.setNeedResched(rq.curr, true);
      return;
    }
    if (p.rt()) {
      if (rq.curr.policy() == SchedPolicy.RR && --p.timeSlice == 0) {
        p.timeSlice = tun.taskTimeslice(p.staticPrio);
        host.setNeedResched(rq.curr, true);
        dequeue(p);
        enqueue(p, rq.active);
      }
    } else {
      p.sleepAvg = Math.max(0, p.sleepAvg - 1);
      if (--p.timeSlice == 0) {
        boolean starving = rq.expiredTimestamp != 0
            && j - rq.expiredTimestamp >= (long) tun.starvationLimitTicks() * rq.nrRunning() + 1;
        dequeue(p);
        host.setNeedResched(rq.curr, true);
        recalc(p);
        p.timeSlice = tun.taskTimeslice(p.staticPrio);
        if (!O1Tunables.taskInteractive(p.prio, p.staticPrio) || starving) {
          if (rq.expiredTimestamp == 0) {
            rq.expiredTimestamp = j;
          }
          enqueue(p, rq.expired);
        } else {
          enqueue(p, rq.active);
        }
      }
    }
    if (rqs.length > 1 && j % tun.busyRebalanceTicks() == 0) {
      loadBalance(rq, cpu, false);
    }
  }

  @Override
  public boolean yield(TaskView current, int cpu) {
    Ref r = ref(current);
    if (current.isIdle() || r.array == null) {
      return true;
    }
    List<Ref> array = r.array;
    dequeue(r);
    if (!r.rt() && r.prio < MAX_PRIO - 1) {
      r.prio++;
      r.yielded = true;
    }
    enqueue(r, array);
    return true;
  }

  @Override
  public void setNice(TaskView p, int nice) {
    Ref r = ref(p);
    if (r.staticPrio - 120 == nice) {
      return;
    }
    host.setNice(p, nice);
    if (r.rt()) {
      r.staticPrio = 120 + nice;
      return;
    }
    List<Ref> array = r.array;
    if (array != null) {
      dequeue(r);
    }
    r.staticPrio = 120 + nice;
    r.prio = r.staticPrio;
    r.yielded = false;
    if (array != null) {
      enqueue(r, array);
      if (rqs[p.cpu()].curr == p) {
        host.reschedule(p.cpu());
      }
    }
  }

  @Override
  public void setScheduler(TaskView p, SchedPolicy policy, int rtPriority) {
    Ref r = ref(p);
    boolean queued = r.array != null;
    if (queued) {
      dequeue(r);
    }
    host.setPolicy(p, policy, rtPriority);
    int rt = Math.max(rtPriority, p.inheritedRtPriority());
    r.prio = rt > 0 ? 99 - rt : r.staticPrio;
    r.yielded = false;
    if (queued) {
      activate(r, rqs[p.cpu()]);
    }
  }

  @Override
  public void setInheritedPriority(TaskView p, int rtPriority) {
    Ref r = ref(p);
    boolean queued = r.array != null;
    if (queued) {
      dequeue(r);
    }
    int before = r.prio;
    host.setInheritedPriority(p, rtPriority);
    int rt = Math.max(p.rtPriority(), rtPriority);
    r.prio = rt > 0 ? 99 - rt : tun.effectivePrio(r.staticPrio, r.sleepAvg);
    if (queued) {
      Rq rq = rqs[p.cpu()];
      activate(r, rq);
      if (rq.curr == p ? r.prio > before : rq.curr == rq.idle || r.prio < ref(rq.curr).prio) {
        host.reschedule(p.cpu());
      }
    }
  }

  @Override
  public boolean setCpusAllowed(TaskView p, long mask) {
    long allowed = mask & ((1L << rqs.length) - 1);
    host.setCpusAllowed(p, allowed);
    Ref r = ref(p);
    if (p.mayRunOn(p.cpu())) {
      r.migrateTo = null;
      return false;
    }
    int target = Long.numberOfTrailingZeros(allowed);
    if (rqs[p.cpu()].curr == p) {
      r.migrateTo = target;
      return true;
    }
    boolean queued = r.array != null;
    if (queued) {
      dequeue(r);
    }
    host.setCpu(p, target);
    if (queued) {
      activateAndPreempt(r, target);
    }
    return false;
  }

  @Override
  public void reap(TaskView reaper, TaskView child) {
    if (reaper.isIdle()) {
      return;
    }
    Ref r = ref(reaper);
    Ref c = ref(child);
    r.timeSlice = Math.min(tun.maxTimesliceTicks(), r.timeSlice + c.timeSlice);
    if (c.sleepAvg < r.sleepAvg) {
      r.sleepAvg = (r.sleepAvg * 3 + c.sleepAvg) / 4;
    }
  }

  @Override
  public void loadBalance(int cpu, boolean idle) {
    loadBalance(rqs[cpu], cpu, idle);
  }

  private int loadBalance(Rq me, int thisCpu, boolean idle) {
    if (rqs.length < 2) {
      return 0;
    }
    int mine = idle ? me.nrRunning() : Math.max(me.nrRunning(), me.prev[thisCpu]);
    int busiestCpu = -1;
    int maxLoad = 1;
    for (int i = 0; i < rqs.length; i++) {
      int now = rqs[i].nrRunning();
      int load = idle ? now : Math.min(now, me.prev[i]);
      me.prev[i] = now;
      if (load > maxLoad && i != thisCpu) {
        busiestCpu = i;
        maxLoad = load;
      }
    }
    if (busiestCpu < 0) {
      return 0;
    }
    Rq busiest = rqs[busiestCpu];
    int imbalance = (maxLoad - mine) / 2;
    if (!idle && imbalance < (maxLoad + 3) / 4) {
      return 0;
    }
    if (busiest.nrRunning() <= mine + 1) {
      return 0;
    }
    boolean fromExpired = !busiest.expired.isEmpty();
    int pulled = 0;
    while (true) {
      Ref found = tailCandidate(fromExpired ? busiest.expired : busiest.active, busiest, thisCpu);
      if (found == null && fromExpired) {
        fromExpired = false;
        continue;
      }
      if (found == null) {
        return pulled;
      }
      dequeue(found);
      host.setCpu(found.task(), thisCpu);
      enqueue(found, me.active);
      if (found.prio < ref(me.curr).prio) {
        host.setNeedResched(me.curr, true);
      }
      pulled++;
      if (!idle && --imbalance != 0 && fromExpired) {
        fromExpired = false;
        continue;
      }
      return pulled;
    }
  }

  /** The first movable task among the last entries of each prio, best prio first. */
  private Ref tailCandidate(List<Ref> array, Rq busiest, int thisCpu) {
    for (int i = 0; i < array.size(); i++) {
      Ref r = array.get(i);
      boolean isTail = i + 1 == array.size() || array.get(i + 1).prio != r.prio;
      if (isTail
          && host.jiffies() - r.sleepTimestamp > tun.cacheDecayTicks()
          && r.task() != busiest.curr
          && r.task().mayRunOn(thisCpu)) {
        return r;
      }
    }
    return null;
  }

  @Override
  public int nrRunning(int cpu) {
    return rqs[cpu].nrRunning();
  }

  @Override
  public List<TaskView> queuedTasks() {
    List<TaskView> out = new ArrayList<>();
    for (Rq rq : rqs) {
      rq.active.forEach(r -> out.add(r.task()));
      rq.expired.forEach(r -> out.add(r.task()));
    }
    return out;
  }

  @Override
  public void checkInvariants() {}
}
