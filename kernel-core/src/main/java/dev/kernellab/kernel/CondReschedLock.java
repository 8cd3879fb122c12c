package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.PreemptionModel;
import dev.kernellab.kernel.spi.TaskState;
import java.util.List;

/**
 * {@code cond_resched_lock()}: the one lock break that 2.4.17's own loops and every patch build
 * on. Where a walk holds spinlocks between two of its steps, when a test says so: drop the locks
 * innermost first (each a {@code spin_unlock}, so under CONFIG_PREEMPT a preemption point once
 * the count reaches zero), reschedule, retake them outermost first, and pay what the walk costs
 * to pick up again (re-find its place, restart a list, drop a pin). When the test says no,
 * nothing is touched.
 *
 * <p>What a patch decides is passed in: {@link When} the break looks (need_resched, a counted
 * test, a run-time switch, or a mix) and what runs {@link Then} with the locks dropped. The
 * generic form is {@link KernelPath.Builder#condReschedLock(SpinLock, long)}; a patch names its
 * own macro with {@link KernelPath.Builder#condReschedLock(String, List, When, Then, long)}.
 *
 * <pre>{@code
 * // 2.4.17 mm/vmscan.c shrink_cache: if (need_resched) { spin_unlock; schedule(); spin_lock; }
 * body.condReschedLock(locks.pagemapLruLock, 0);
 *
 * // Love's lock-break: if (TEST_LOCK_COUNT(100)) if (conditional_schedule_needed())
 * //     break_spin_lock(&dcache_lock);
 * hook.condReschedLock("break_spin_lock(&dcache_lock)", List.of(locks.dcacheLock),
 *     When.every(101).and(When.needResched()), Then.NOTHING, 0);
 * }</pre>
 */
@Models(file = "include/linux/sched.h", function = "cond_resched_lock",
    version = "Love's low-latency zap_page_range, 2.5.28")
public final class CondReschedLock {

  /*
   * Implementation overview
   *
   * Linus asked for the break as one primitive rather than the written-out unlock, schedule,
   * lock: "there might be other places that want to drop a lock before scheduling anyway" [1];
   * Love's patch for 2.5.28 put it in include/linux/sched.h [2]. The 2.4 patches of the era
   * wrote the same sequence by hand at each site, differing only in when they look and what
   * they run between unlock and lock [3][4], which is what When and Then carry here.
   *
   * The operation (Break) runs in phases, kept in frame.phase:
   *
   *   0      the test; if due, _raw_spin_unlock of every lock, innermost first
   *   1      preempt_count -= one per lock (the unlocks' preempt_enable), then the preemption
   *          check: under CONFIG_PREEMPT a preemption point if the count reached zero
   *   2      Then: nothing, cond_resched(), or set_current_state(TASK_RUNNING); schedule()
   *   3      preempt_count += one per lock (the spin_locks' preempt_disable)
   *   4 + i  _raw_spin_lock of lock i, outermost first (spins on SMP while it is held)
   *   then   the revalidation, a compute that ends the operation
   *
   * The drop is a plain spin_unlock, as 2.4.17's own loops and the 2.4 patches write it, not
   * Love's _raw_spin_unlock + preempt_enable_no_resched(), which keeps schedule() from running
   * twice: with Then.SCHEDULE under CONFIG_PREEMPT a due break may be preempted at the
   * unlock and still call schedule(), as the low-latency patch's spin_unlock();
   * unconditional_schedule() does. Love's version breaks one lock and refuses to break when
   * others are held (preempt_count() == 1); this one drops every lock it is given, as the hunks
   * that hold two (invalidate_inode_pages) do.
   *
   * The frame may be the loop body's own (a walk that breaks its lock inline, as 2.4.17
   * shrink_cache does), so the retake index lives in the phase, never in the loop's iteration
   * count.
   *
   * [1] Linus Torvalds, quoted in Robert Love, "Re: [PATCH] low-latency zap_page_range",
   *     linux-kernel, 22 July 2002.
   * [2] Robert Love, "[PATCH] updated low-latency zap_page_range", linux-kernel, 24 July 2002.
   * [3] Andrew Morton's low-latency patch for 2.4, include/linux/low-latency.h (2.4.32 copy).
   * [4] Robert Love's lock-break patch for 2.4, include/linux/lock_break.h.
   */

  private CondReschedLock() {}

  /**
   * When a lock break drops its locks: tested each time the walk reaches the break, with the
   * locks held. Must not change state, and should not allocate: it runs on the interpreter's
   * path, which allocates nothing while the kernel runs.
   */
  @FunctionalInterface
  public interface When {

    /**
     * True if the break drops its locks now.
     *
     * @param cpu the CPU running the walk (its current task, need_resched)
     * @param iterations how many iterations of the loop around the break have run, counting
     *     the one that just ran: 1 at the break after the first
     */
    boolean due(KernelCpu cpu, long iterations);

    /** Both this and {@code other} (tested in that order). */
    default When and(When other) {
      return new Both(this, other);
    }

    /**
     * {@code need_resched()}, as the installed {@link PreemptionModel} answers it at an
     * explicit reschedule point ({@link PreemptionModel#rescheduleAtCondResched}).
     */
    static When needResched() {
      return NeedResched.INSTANCE;
    }

    /** At every {@code n}-th iteration (the {@code n}-th, {@code 2n}-th...); 1 = every one. */
    static When every(long n) {
      if (n < 1) {
        throw new IllegalArgumentException("a lock break looks every 1 or more iterations, got " + n);
      }
      return new EveryNth(n);
    }
  }

  /**
   * The first count in {@code from..to} at which {@code when} answers true, or {@code to + 1}
   * if none, for a stretch in which nothing changes but the count (the CPU's state, its task's
   * need_resched, any flag the test reads): what fast-forward asks to learn in one question how
   * many iterations run before a break or reschedule point fires. The kernel's own tests
   * ({@link When#every}, {@link When#needResched} and their {@code and}) answer in a step or a
   * few; any other {@code When} is asked at each count, as the walk would ask it. Kept out of
   * the {@link When} interface so that no patch's answer can differ from its {@code due}.
   */
  static long firstDue(When when, KernelCpu cpu, long from, long to) {
    if (to == Long.MAX_VALUE) {
      throw new IllegalArgumentException("firstDue: counts up to " + to + " have no answer past them");
    }
    if (from > to) {
      return to + 1;
    }
    if (when instanceof EveryNth every) {
      return every.firstMultiple(from, to);
    }
    if (when instanceof NeedResched) {
      return when.due(cpu, from) ? from : to + 1;
    }
    if (when instanceof Both both) {
      // each test's first count from where the other's was, until they agree
      long x = from;
      while (x <= to) {
        x = firstDue(both.first, cpu, x, to);
        if (x > to) {
          break;
        }
        long y = firstDue(both.second, cpu, x, to);
        if (y == x) {
          return x;
        }
        x = y;
      }
      return to + 1;
    }
    for (long x = from; x <= to; x++) {
      if (when.due(cpu, x)) {
        return x;
      }
    }
    return to + 1;
  }

  /** {@link When#and}: the first test, then the second. */
  private static final class Both implements When {
    private final When first;
    private final When second;

    Both(When first, When second) {
      this.first = first;
      this.second = second;
    }

    @Override
    public boolean due(KernelCpu cpu, long iterations) {
      return first.due(cpu, iterations) && second.due(cpu, iterations);
    }
  }

  /** {@link When#needResched}: the same answer at every count while the CPU's state stays. */
  private static final class NeedResched implements When {
    static final NeedResched INSTANCE = new NeedResched();

    @Override
    public boolean due(KernelCpu cpu, long iterations) {
      return cpu.kernel.preemption.rescheduleAtCondResched(cpu, cpu.current);
    }
  }

  /**
   * {@link When#every}: {@code iterations % n == 0} without a division (the lock breaks of the era test a count at
   * every iteration of their walk (TEST_LOCK_COUNT, TEST_RESCHED_COUNT), and a 64-bit division
   * is the slowest instruction on that path), and the next multiple in one step for
   * fast-forward.
   */
  static final class EveryNth implements When {

    /*
     * Implementation overview
     *
     * Divisibility by multiplication (Hacker's Delight, 2nd ed., 10-17, "Test for zero remainder
     * after division by a constant", after Granlund and Montgomery): with n = d * 2^k, d odd, and
     * inv the inverse of d modulo 2^64, an unsigned x is a multiple of n iff rotating x * inv right
     * by k gives at most floor((2^64 - 1) / n). Negative x (never a count) take the division.
     */

    private final long n;
    private final long inverse; // d * inverse == 1 (mod 2^64), d = n's odd part
    private final int shift; // k: n = d * 2^k
    private final long limit; // floor((2^64 - 1) / n), unsigned

    EveryNth(long n) {
      if (n < 1) {
        throw new IllegalArgumentException("a count is tested every 1 or more iterations, got " + n);
      }
      this.n = n;
      this.shift = Long.numberOfTrailingZeros(n);
      long d = n >>> shift;
      long inv = d; // right in 3 bits for odd d; a Newton step doubles that: 5 reach 96 >= 64
      for (int i = 0; i < 5; i++) {
        inv *= 2 - d * inv;
      }
      this.inverse = inv;
      this.limit = Long.divideUnsigned(-1L, n);
    }

    boolean divides(long x) {
      if (x < 0) {
        return x % n == 0;
      }
      return Long.compareUnsigned(Long.rotateRight(x * inverse, shift), limit) <= 0;
    }

    @Override
    public boolean due(KernelCpu cpu, long iterations) {
      return n == 1 || divides(iterations);
    }

    /** The first multiple of n in {@code from..to}, or {@code to + 1} (from <= to). */
    long firstMultiple(long from, long to) {
      long x = n == 1 ? from : from + Math.floorMod(-from, n);
      return x <= to && x >= from ? x : to + 1;
    }
  }

  /** What runs with the locks dropped, before they are retaken. */
  public enum Then {
    /**
     * Nothing: the unlock is the only chance to reschedule, a preemption point under
     * CONFIG_PREEMPT when no other lock keeps the count up (lock_break.h
     * {@code break_spin_lock}).
     */
    NOTHING,
    /**
     * {@code cond_resched()}: {@code schedule()} only if need_resched is still set (the unlock
     * may have preempted and cleared it).
     */
    COND_RESCHED,
    /**
     * {@code set_current_state(TASK_RUNNING); schedule();} whatever the unlock did: 2.4.17's
     * own breaks, and the low-latency patch's {@code unconditional_schedule()}.
     */
    SCHEDULE
  }

  /** The operation; see the implementation overview for its phases. */
  static final class Break extends Op {
    private static final int RETAKE = 4; // the phase of the first retake
    private final String description;
    private final SpinLock[] locks; // outermost first
    private final When when;
    private final Then then;
    private final long revalidateNs;

    Break(String description, List<SpinLock> locks, When when, Then then, long revalidateNs) {
      if (description == null || description.isBlank()) {
        throw new IllegalArgumentException("a lock break says how it reads in a listing");
      }
      if (locks.isEmpty() || locks.stream().anyMatch(l -> l == null) || revalidateNs < 0) {
        throw new IllegalArgumentException(
            description + ": a lock break needs its locks and a revalidation cost >= 0");
      }
      for (SpinLock l : locks) {
        if (l.isBigKernelLock()) {
          throw new IllegalArgumentException(description + ": " + l + " is the big kernel lock, which"
              + " schedule() drops and retakes by itself (release_kernel_lock): reschedule with it"
              + " held (condResched) instead of breaking it");
        }
      }
      if (when == null || then == null) {
        throw new IllegalArgumentException(description + ": a lock break needs its test and what runs then");
      }
      this.description = description;
      this.locks = locks.toArray(new SpinLock[0]);
      this.when = when;
      this.then = then;
      this.revalidateNs = revalidateNs;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      switch (f.phase) {
        case 0 -> {
          if (!dueAt(c, f.iteration + 1)) {
            f.advance();
            return;
          }
          for (int i = locks.length - 1; i >= 0; i--) {
            if (locks[i].heldForm == LockOps.Form.IRQ || locks[i].heldForm == LockOps.Form.IRQSAVE) {
              c.noteIrqsLeftOff(locks[i], ctx); // a plain spin_unlock leaves interrupts off
            }
            k.locks.release(c, ctx, locks[i], false);
          }
          f.phase = 1;
        }
        case 1 -> {
          c.addPreemptCount(-PreemptCount.PREEMPT_OFFSET * locks.length, ctx);
          f.phase = 2;
          c.preemptCheck(ctx);
        }
        case 2 -> {
          f.phase = 3;
          if (then == Then.SCHEDULE
              || (then == Then.COND_RESCHED && k.preemption.rescheduleAtCondResched(c, c.current))) {
            c.current.setState(TaskState.RUNNING);
            k.sched.callSchedule(c, ctx);
          }
        }
        case 3 -> {
          c.addPreemptCount(PreemptCount.PREEMPT_OFFSET * locks.length, ctx);
          f.phase = RETAKE;
        }
        default -> {
          if (f.phase < RETAKE + locks.length) {
            while (f.phase < RETAKE + locks.length && retake(k, c, ctx, f, locks[f.phase - RETAKE])) {
              f.phase++;
            }
            return;
          }
          c.compute(f, revalidateNs, true);
        }
      }
    }

    /**
     * The first count in {@code from..to} at which {@link #dueAt} answers true, or {@code to + 1},
     * for a stretch in which nothing changes but the count ({@link CondReschedLock#firstDue}).
     */
    long firstDueAt(KernelCpu c, long from, long to) {
      long x = CondReschedLock.firstDue(when, c, from, to);
      if (x <= to) {
        for (SpinLock l : locks) {
          if (c.kernel.sleeps(l)) {
            return to + 1;
          }
        }
      }
      return x;
    }

    /**
     * Whether the break, reached at the given iteration, drops its locks: the test of phase 0,
     * which changes nothing ({@link When}), for {@link FastForward}.
     */
    boolean dueAt(KernelCpu c, long iterations) {
      // Where the locks sleep the section is preemptible and a waiter of higher priority has
      // preempted the holder already through priority inheritance: the model keeps the lock
      // (6.12's __cond_resched_lock would drop it for a contended lock, letting waiters of lower
      // priority in sooner, which no latency of a higher one depends on). An rwlock held for
      // read is the exception: 6.12's rwlock_needbreak breaks for a writer waiting on readers,
      // who lend it nothing; no break of the catalog holds an rwlock.
      if (!when.due(c, iterations)) {
        return false; // the common answer, so the locks are looked at only when a break is due
      }
      for (SpinLock l : locks) {
        if (c.kernel.sleeps(l)) {
          return false;
        }
      }
      return true;
    }

    private static boolean retake(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f, SpinLock l) {
      if (!k.locks.tryAcquire(c, ctx, f, l, false)) {
        return false;
      }
      if (l.nested == 0) {
        l.heldForm = LockOps.Form.PLAIN; // retaken with spin_lock, whatever took it first
      }
      return true;
    }

    @Override
    String describe() {
      return description;
    }
  }
}
