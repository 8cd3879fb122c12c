package dev.kernellab.anatomy;

import dev.kernellab.kernel.PreemptCount;
import dev.kernellab.kernel.spi.CpuView;
import dev.kernellab.kernel.spi.LatencyCause;
import dev.kernellab.kernel.spi.LockView;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.TaskView;

/**
 * What held one CPU while a probe waited for it: the time each (task, path, context) ran
 * there, with the state it ran in, in a few fixed slots that allocate nothing.
 */
final class WaitLedger {

  /*
   * Implementation overview
   *
   * A stretch is the time between two events of the CPU (a path entered or left, a lock taken
   * or dropped, an interrupt, a switch, the preempt count or the interrupt flag changing), so
   * the state read at its start holds for all of it. Each stretch goes to the slot of its
   * (task, path, context); a loop's body and the path it calls take turns, so the last two
   * slots are tried before the scan. When all slots are taken, the slot with the least time
   * leaves for the merged remainder (otherNs), so the slots and the remainder always add up to
   * the time recorded. A slot keeps the strongest state its stretches had: the last lock seen,
   * the deepest counts, interrupts off in any of them.
   */

  static final int SLOTS = 16;

  static final int CHAIN = Cause.LentPriority.MAX_CHAIN;

  static final byte TASK = 0;
  static final byte HARDIRQ = 1;
  static final byte SOFTIRQ = 2;

  /** The state of one CPU at the start of its current stretch. */
  static final class Stretch {
    long from;
    PathView path;
    TaskView task;
    LockView lock; // innermost held
    int preemptCount;
    byte context;
    boolean user;
    boolean irqsOff;
    LatencyCause declared;
    int lent; // the real-time priority a waiter lent the task (priority inheritance), or 0
    // who lent it, along the chain (TaskView.lender), and the lock each waits for: chainLength links
    final TaskView[] lender = new TaskView[Cause.LentPriority.MAX_CHAIN];
    final LockView[] lenderLock = new LockView[Cause.LentPriority.MAX_CHAIN];
    int chainLength;
    SchedPolicy policy; // the task's own, without a loan
    int rtPriority; // the task's own, 0 under SCHED_OTHER

    void start(long now, CpuView c) {
      from = now;
      path = c.runningPath();
      task = c.current();
      lock = c.heldLockCount() > 0 ? c.heldLock(c.heldLockCount() - 1) : null;
      preemptCount = c.preemptCount();
      context = c.inHardirqContext() ? HARDIRQ : c.inSoftirqContext() ? SOFTIRQ : TASK;
      user = c.inUserMode();
      irqsOff = !c.interruptsEnabled();
      declared = c.declaredCause();
      lent = task.inheritedRtPriority();
      policy = task.policy();
      rtPriority = task.rtPriority();
      chainLength = 0;
      // read only where there is a loan, so a kernel without rt_mutexes pays one field read
      TaskView t = task;
      while (lent > 0 && chainLength < lender.length && t.inheritedRtPriority() > 0) {
        TaskView by = t.lender();
        LockView on = by == null ? null : by.blockedOnLock();
        if (on == null) {
          break;
        }
        lender[chainLength] = by;
        lenderLock[chainLength] = on;
        chainLength++;
        t = by;
      }
    }

    /** {@code released} is no longer held, though {@code c} still lists it. */
    void released(LockView released, CpuView c) {
      if (lock != released) {
        return;
      }
      lock = null;
      for (int i = c.heldLockCount() - 1; i >= 0; i--) {
        if (c.heldLock(i) != released) {
          lock = c.heldLock(i);
          return;
        }
      }
    }
  }

  final PathView[] path = new PathView[SLOTS];
  final TaskView[] task = new TaskView[SLOTS];
  final byte[] context = new byte[SLOTS];
  final LockView[] lock = new LockView[SLOTS]; // the lock the slot's time ran under longest
  private final long[] lockNs = new long[SLOTS]; // the time under lock[i]
  private final LockView[] otherLock = new LockView[SLOTS]; // the next candidate, and its time
  private final long[] otherLockNs = new long[SLOTS];
  final int[] preemptDepth = new int[SLOTS];
  final int[] bhDepth = new int[SLOTS];
  final boolean[] user = new boolean[SLOTS];
  final boolean[] irqsOff = new boolean[SLOTS];
  final LatencyCause[] declared = new LatencyCause[SLOTS];
  final int[] lent = new int[SLOTS]; // the highest priority lent to the slot's task in its stretches
  // the chain of that loan, CHAIN links a slot, as the last stretch with it saw it: chainLength[i] links from i * CHAIN
  final TaskView[] lender = new TaskView[SLOTS * CHAIN];
  final LockView[] lenderLock = new LockView[SLOTS * CHAIN];
  final int[] chainLength = new int[SLOTS];
  final SchedPolicy[] policy = new SchedPolicy[SLOTS]; // the slot's task's own, at its highest priority seen
  final int[] rtPriority = new int[SLOTS]; // the highest own real-time priority of the slot's task, 0 if none
  final long[] ns = new long[SLOTS];
  final long[] iterations = new long[SLOTS]; // of the slot's loop, when it ended in one of its stretches
  final long[] firstSeen = new long[SLOTS]; // the order slots were first held in
  int slots;
  // the task that waited (null before waitedBy), and the real-time priority it was scheduled at
  // when its wait began, a loan included (0 for a SCHED_OTHER task on no loan)
  TaskView waiter;
  int waiterPriority;
  long otherNs;
  int otherCount;
  private long stretches;
  private int lastSlot;
  private int prevSlot;

  /** Becomes a copy of {@code o}, slot by slot (no allocation). */
  void copyFrom(WaitLedger o) {
    System.arraycopy(o.path, 0, path, 0, SLOTS);
    System.arraycopy(o.task, 0, task, 0, SLOTS);
    System.arraycopy(o.context, 0, context, 0, SLOTS);
    System.arraycopy(o.lock, 0, lock, 0, SLOTS);
    System.arraycopy(o.lockNs, 0, lockNs, 0, SLOTS);
    System.arraycopy(o.otherLock, 0, otherLock, 0, SLOTS);
    System.arraycopy(o.otherLockNs, 0, otherLockNs, 0, SLOTS);
    System.arraycopy(o.preemptDepth, 0, preemptDepth, 0, SLOTS);
    System.arraycopy(o.bhDepth, 0, bhDepth, 0, SLOTS);
    System.arraycopy(o.user, 0, user, 0, SLOTS);
    System.arraycopy(o.irqsOff, 0, irqsOff, 0, SLOTS);
    System.arraycopy(o.declared, 0, declared, 0, SLOTS);
    System.arraycopy(o.lent, 0, lent, 0, SLOTS);
    System.arraycopy(o.lender, 0, lender, 0, SLOTS * CHAIN);
    System.arraycopy(o.lenderLock, 0, lenderLock, 0, SLOTS * CHAIN);
    System.arraycopy(o.chainLength, 0, chainLength, 0, SLOTS);
    System.arraycopy(o.policy, 0, policy, 0, SLOTS);
    System.arraycopy(o.rtPriority, 0, rtPriority, 0, SLOTS);
    waiter = o.waiter;
    waiterPriority = o.waiterPriority;
    System.arraycopy(o.ns, 0, ns, 0, SLOTS);
    System.arraycopy(o.iterations, 0, iterations, 0, SLOTS);
    System.arraycopy(o.firstSeen, 0, firstSeen, 0, SLOTS);
    slots = o.slots;
    otherNs = o.otherNs;
    otherCount = o.otherCount;
    stretches = o.stretches;
    lastSlot = o.lastSlot;
    prevSlot = o.prevSlot;
  }

  void clear() {
    waiter = null;
    slots = 0;
    otherNs = 0;
    otherCount = 0;
    stretches = 0;
    lastSlot = 0;
    prevSlot = 0;
  }

  /**
   * A new wait, of {@code w}: cleared, with the real-time priority {@code w} is scheduled at
   * now, which the holders' are compared with: a priority lent to it counts, as the scheduler
   * ranks it by that ({@code TaskView.effectiveRtPriority()}).
   */
  void waitedBy(TaskView w) {
    clear();
    waiter = w;
    waiterPriority = w.effectiveRtPriority();
  }

  /** Total time recorded, ns. */
  long total() {
    long t = otherNs;
    for (int i = 0; i < slots; i++) {
      t += ns[i];
    }
    return t;
  }

  /**
   * Adds a stretch of {@code len} ns run in the state {@code s}, at whose end the loop of its
   * path ended after {@code loopIterations} (0 if it did not end).
   */
  void add(Stretch s, long len, long loopIterations) {
    int i = find(s);
    if (i == slots) {
      if (slots < SLOTS) {
        slots++;
      } else {
        i = smallest();
        otherNs += ns[i];
        otherCount++;
      }
      path[i] = s.path;
      task[i] = s.task;
      context[i] = s.context;
      ns[i] = 0;
      lock[i] = null;
      lockNs[i] = 0;
      otherLock[i] = null;
      otherLockNs[i] = 0;
      preemptDepth[i] = 0;
      bhDepth[i] = 0;
      user[i] = false;
      irqsOff[i] = false;
      declared[i] = null;
      lent[i] = 0;
      chainLength[i] = 0;
      policy[i] = s.policy;
      rtPriority[i] = 0;
      iterations[i] = 0;
      firstSeen[i] = stretches;
    }
    stretches++;
    ns[i] += len;
    if (s.lock != null) {
      underLock(i, s.lock, len);
    }
    preemptDepth[i] = Math.max(preemptDepth[i], PreemptCount.preemptDepth(s.preemptCount));
    bhDepth[i] = Math.max(bhDepth[i], (s.preemptCount & PreemptCount.SOFTIRQ_MASK) / PreemptCount.SOFTIRQ_OFFSET);
    user[i] |= s.user;
    irqsOff[i] |= s.irqsOff;
    if (s.declared != null) {
      declared[i] = s.declared;
    }
    if (s.lent > 0 && s.lent >= lent[i]) {
      lent[i] = s.lent;
      chainLength[i] = s.chainLength;
      System.arraycopy(s.lender, 0, lender, i * CHAIN, s.chainLength);
      System.arraycopy(s.lenderLock, 0, lenderLock, i * CHAIN, s.chainLength);
    }
    if (s.rtPriority >= rtPriority[i]) {
      rtPriority[i] = s.rtPriority;
      policy[i] = s.policy;
    }
    iterations[i] = Math.max(iterations[i], loopIterations);
    if (i != lastSlot) {
      prevSlot = lastSlot;
      lastSlot = i;
    }
  }

  /**
   * {@code len} ns of slot {@code i} ran with {@code l} the innermost lock held. A path that
   * drops an inner lock on each iteration and keeps an outer one (sync_list's inode_lock inside
   * kupdate's BKL) alternates between the two: the slot names the one its time ran under
   * longest, not the last one seen. A stretch credits its innermost lock only, so an outer lock
   * held across a mostly nested body is credited only with its own part: the BKL around
   * sync_list's short inode_lock holds wins, an outer lock around long inner holds would not
   * (the catalog has no such path yet). Two candidates are kept; a third lock replaces the
   * second, with its time counted from then.
   */
  private void underLock(int i, LockView l, long len) {
    if (lock[i] == null || lock[i] == l) {
      lock[i] = l;
      lockNs[i] += len;
      return;
    }
    if (otherLock[i] != l) {
      otherLock[i] = l;
      otherLockNs[i] = 0;
    }
    otherLockNs[i] += len;
    if (otherLockNs[i] > lockNs[i]) {
      LockView t = lock[i];
      long tn = lockNs[i];
      lock[i] = otherLock[i];
      lockNs[i] = otherLockNs[i];
      otherLock[i] = t;
      otherLockNs[i] = tn;
    }
  }

  /**
   * The loop of the path that {@code s} runs ended after {@code loopIterations}, in no time: the
   * slot of its (task, path, context), if one has held the CPU, keeps the count.
   */
  void countIterations(Stretch s, long loopIterations) {
    int i = find(s);
    if (i < slots) {
      iterations[i] = Math.max(iterations[i], loopIterations);
    }
  }

  private int find(Stretch s) {
    if (lastSlot < slots && matches(lastSlot, s)) {
      return lastSlot;
    }
    if (prevSlot < slots && matches(prevSlot, s)) {
      return prevSlot;
    }
    int i = 0;
    while (i < slots && !matches(i, s)) {
      i++;
    }
    return i;
  }

  private boolean matches(int i, Stretch s) {
    return path[i] == s.path && task[i] == s.task && context[i] == s.context;
  }

  private int smallest() {
    int m = 0;
    for (int i = 1; i < slots; i++) {
      if (ns[i] < ns[m]) {
        m = i;
      }
    }
    return m;
  }
}
