package dev.kernellab.workloads.rtapp;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.WaitQueue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pthread mutexes and condition variables of LinuxThreads (glibc 2.2, Xavier Leroy), which
 * is what an rt-app-like program linked against on Linux 2.4: there was no futex (2.5.7) and no
 * NPTL (2.6). A thread blocks by {@code suspend(self)}, a {@code sigsuspend} until the
 * "restart" signal (SIGUSR1 on 2.4 kernels without real-time signal support in LinuxThreads'
 * build, __pthread_sig_restart otherwise: the same path here), and wakes another by
 * {@code restart(th)}, a {@code kill(pid, signal)}.
 *
 * <pre>{@code
 * LinuxThreads lt = new LinuxThreads(threads);
 * LinuxThreads.Mutex m = lt.mutex("m");
 * }</pre>
 *
 * <p>Implementation overview. A fast mutex (PTHREAD_MUTEX_FAST_NP, the default, as rt-app
 * makes them without attributes): lock is a user-mode compare-and-swap; if the mutex is taken
 * the thread puts itself on the mutex's list of waiters and suspends, and tries again when
 * restarted. Unlock releases the mutex and, if a thread waits, picks the waiter of highest
 * priority (oldest first among equals), takes it off the list and restarts it: the mutex is
 * not handed over, so a third thread may take it first (linuxthreads/spinlock.c
 * __pthread_lock, __pthread_unlock, glibc 2.2.5). pthread_cond_wait puts the thread on the
 * condition's list in priority order, unlocks the mutex, suspends until a signal or broadcast
 * takes it off the list, then locks the mutex again; signal restarts the first waiter,
 * broadcast all of them (linuxthreads/condvar.c). A restart that arrives before its suspend is
 * not lost: it is a pending signal ({@link Waiter#restartPending}).
 *
 * <p>LinuxThreads has no priority-inheritance mutex (PTHREAD_PRIO_INHERIT came with NPTL and
 * the PI futexes of 2.6.18): a file's {@code pi_enabled} is honoured by nothing, and what a
 * high-priority waiter suffers behind a lower-priority owner is counted as an inversion.
 *
 * <p>References: [1] glibc 2.2.5 linuxthreads/spinlock.c, condvar.c, restart.h; [2] 2.4.17
 * kernel/signal.c sys_kill, sys_rt_sigsuspend.
 */
final class LinuxThreads {

  /** A user-mode compare-and-swap and the call around it: assumption, 50 ns (a lock cmpxchg is ~25 cycles on a P6, plus the call). */
  static final long CAS_NS = 50;
  /**
   * sys_rt_sigsuspend's work before it sleeps (copy of the mask, sigprocmask under
   * sigmask_lock, recalc_sigpending): assumption, 1 us, about two null system calls' worth.
   */
  static final long SIGSUSPEND_NS = 1_000;
  /**
   * The restart signal's delivery once woken: do_signal, setup_frame, LinuxThreads' handler
   * and sys_sigreturn. Assumption, 3 us: lmbench's lat_sig "catch" on P6 machines of the era
   * is a few microseconds (no figure for this machine is cited).
   */
  static final long SIGNAL_DELIVERY_NS = 3_000;
  /** sys_kill to a thread: find_task_by_pid under tasklist_lock, send_sig_info: assumption, 1 us. */
  static final long KILL_NS = 1_000;

  /** A thread as the primitives see it: how to suspend it and how important it is. */
  static final class Waiter {
    final String comm;
    final int rank; // higher runs first: 1000 + rt priority for FIFO/RR, -nice for OTHER
    final WaitQueue restart;
    boolean restartPending; // the restart signal is pending: the next suspend returns at once
    long inversionSinceNs = -1; // while it waits behind a lower-priority owner: since when
    Waiter killTarget; // whom this thread's next kill() restarts
    final ArrayDeque<Waiter> toRestart; // restarts this thread still owes (a broadcast's)

    Waiter(String comm, int rank, int threads) {
      this.comm = comm;
      this.rank = rank;
      this.restart = new WaitQueue("restart:" + comm);
      this.toRestart = new ArrayDeque<>(threads + 1);
    }

    /** Consumes a pending restart: what the wait of {@code suspend} tests. */
    boolean takeRestart() {
      boolean p = restartPending;
      restartPending = false;
      return p;
    }
  }

  /** A fast mutex: its owner and its waiters. */
  final class Mutex {
    final String name;
    Waiter owner; // null iff free
    final List<Waiter> waiters = new ArrayList<>();

    Mutex(String name) {
      this.name = name;
    }

    /** The compare-and-swap: takes the mutex for {@code w}, or queues {@code w} (once) and says no. */
    boolean tryLock(Waiter w, long now) {
      if (owner == null) {
        owner = w;
        waiters.remove(w);
        if (w.inversionSinceNs >= 0) {
          inversions.record(now - w.inversionSinceNs);
          w.inversionSinceNs = -1;
        }
        return true;
      }
      if (!waiters.contains(w)) {
        waiters.add(w);
        if (owner.rank < w.rank && w.inversionSinceNs < 0) {
          w.inversionSinceNs = now;
        }
      }
      return false;
    }

    /** Releases; the waiter of highest rank (oldest among equals) is owed a restart. */
    void unlock(Waiter w) {
      if (owner != w) {
        throw new IllegalStateException("rt-app: " + w.comm + " unlocks mutex " + name + ", held by "
            + (owner == null ? "no thread" : owner.comm) + " (the file unlocks a mutex it did not lock)");
      }
      owner = null;
      Waiter best = null;
      for (Waiter x : waiters) {
        if (best == null || x.rank > best.rank) {
          best = x;
        }
      }
      if (best != null) {
        waiters.remove(best);
        w.toRestart.add(best);
      }
    }
  }

  /** A condition variable: its waiters in priority order. */
  static final class Cond {
    final String name;
    final List<Waiter> waiters = new ArrayList<>();

    Cond(String name) {
      this.name = name;
    }

    void enqueue(Waiter w) {
      int i = 0;
      while (i < waiters.size() && waiters.get(i).rank >= w.rank) {
        i++;
      }
      waiters.add(i, w);
    }
  }

  /** The inversions seen: count and worst. */
  static final class Inversions {
    long count;
    long worstNs;

    void record(long ns) {
      count++;
      worstNs = Math.max(worstNs, ns);
    }
  }

  final Inversions inversions = new Inversions();
  private final Map<String, Mutex> mutexes = new LinkedHashMap<>();
  private final Map<String, Cond> conds = new LinkedHashMap<>();

  /** The mutex named {@code name}, made on first use as rt-app's resources are. */
  Mutex mutex(String name) {
    return mutexes.computeIfAbsent(name, Mutex::new);
  }

  /** The condition named {@code name}, made on first use. */
  Cond cond(String name) {
    return conds.computeIfAbsent(name, Cond::new);
  }

  /** {@code suspend(self)}: sigsuspend until the restart signal, then its delivery. */
  @Models(file = "kernel/signal.c", function = "sys_rt_sigsuspend", version = "2.4.17")
  static KernelPath sigsuspend(Waiter self) {
    return KernelPath.path("kernel/signal.c", "sys_rt_sigsuspend")
        .compute(SIGSUSPEND_NS)
        .waitEvent(self.restart, self::takeRestart)
        .compute(SIGNAL_DELIVERY_NS)
        .build();
  }

  /**
   * {@code restart(th)}: kill(th, restart signal) from {@code self} to its
   * {@link Waiter#killTarget}; {@code all} lists every thread that may be the target, whose
   * wait queue the body wakes.
   */
  @Models(file = "kernel/signal.c", function = "sys_kill", version = "2.4.17")
  static KernelPath kill(Waiter self, List<Waiter> all) {
    KernelPath.Builder b = KernelPath.path("kernel/signal.c", "sys_kill")
        .compute(KILL_NS)
        .effect("send_sig_info(): the signal is pending", c -> self.killTarget.restartPending = true);
    for (Waiter w : all) {
      b.callIf("signal_wake_up(" + w.comm + ")", c -> self.killTarget == w,
          KernelPath.path("kernel/signal.c", "signal_wake_up").wakeUp(w.restart).build());
    }
    return b.build();
  }
}
