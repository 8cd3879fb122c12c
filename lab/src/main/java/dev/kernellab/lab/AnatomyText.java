package dev.kernellab.lab;

import dev.kernellab.anatomy.Cause;
import dev.kernellab.anatomy.Part;
import dev.kernellab.anatomy.SampleAnatomy;
import dev.kernellab.anatomy.Segment;
import dev.kernellab.kernel.spi.LockView;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.workloads.ProbeSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The one place where a sample's anatomy becomes words: each {@link Part} and {@link Cause}
 * type has its text here, and every output (the compare table, explain, the JSON, the HTML
 * report, a sweep's results) prints the {@link Breakdown} made here. A cause a patch declared
 * ({@link Cause.Declared}) brings its own words.
 */
final class AnatomyText {

  private AnatomyText() {}

  /** The sample in words. */
  static Breakdown render(SampleAnatomy a) {
    List<Breakdown.Part> parts = new ArrayList<>(a.segments().size());
    for (Segment s : a.segments()) {
      List<Breakdown.Share> shares = new ArrayList<>();
      if (s.holders().size() > 1) {
        for (Cause.Holding h : s.holders()) {
          shares.add(new Breakdown.Share(h.ns(), cause(h)));
        }
      }
      parts.add(new Breakdown.Part(part(s.part()), s.ns(), cause(s.cause()), List.copyOf(shares)));
    }
    Segment d = a.dominant();
    // a holder the waiter could not outrank is named by what it ran: its path, lock and task
    Cause c = Cause.unwrapped(d.cause());
    String path = null;
    String site = null;
    String lock = null;
    String task = null;
    if (c instanceof Cause.InKernelCode k) {
      path = k.path().location();
      site = k.path().site() == null ? null : k.path().site().key();
      if (d.part() == Part.WAIT_FOR_CPU || d.part() == Part.WAIT_FOR_HANDLER_THREAD) {
        task = k.task().toString();
        if (c instanceof Cause.SpinlockHeld h) {
          lock = h.lock().name();
        } else if (c instanceof Cause.BigKernelLockHeld b) {
          lock = b.lock().name();
        } else if (c instanceof Cause.NotPreemptible n) {
          lock = n.heldLock().map(LockView::name).orElse(null);
        }
      }
    } else if (c instanceof Cause.InterruptHandler h && h.handler() != null) {
      path = h.handler().location();
      task = h.task().toString();
    } else if (c instanceof Cause.SoftirqRunning s && s.path() != null) {
      path = s.path().location();
      task = s.task().toString();
    } else if (c instanceof Cause.UserMode u) {
      task = u.task().toString();
    }
    return new Breakdown(a.latencyNs(), a.atNs(), a.cpu(), parts, a.segments().indexOf(d), path, site, lock, task,
        cause(d.cause()));
  }

  /** A part's name, as the tables and the JSON have always called it. */
  static String part(Part p) {
    return switch (p) {
      case TIMER_GRANULARITY -> "timer granularity";
      case INTERRUPT_LATENCY -> "interrupt latency";
      case HANDLER -> "handler";
      case WAIT_FOR_HANDLER_THREAD -> "wait for the handler thread";
      case HANDLER_THREAD -> "handler thread";
      case WAIT_FOR_CPU -> "wait for the CPU";
      case SWITCH_TO_USER -> "switch to user";
    };
  }

  /** A cause in one line. */
  static String cause(Cause c) {
    if (c instanceof Cause.TimerRounding t) {
      return String.format(Locale.ROOT, "the timer ran at the next tick of its jiffy (HZ %d, a jiffy is %s):"
          + " 2.4's nanosleep rounds a sleep up to whole jiffies and adds one", t.hz(),
          Durations.latency(1_000_000_000L / t.hz()));
    }
    if (c instanceof Cause.TakenAtOnce) {
      return "taken at once";
    }
    if (c instanceof Cause.EarlierInterrupt) {
      return "another interrupt's handler ran first, or interrupts were off in an interrupt";
    }
    if (c instanceof Cause.Handler) {
      return "the driver's handler, and the softirqs and interrupts it let in";
    }
    if (c instanceof Cause.SoftirqThread s) {
      return "the timer's softirqs in " + s.thread() + ", and the interrupts and tasks that preempted it";
    }
    if (c instanceof Cause.AlreadyRunnable r) {
      return r.start() == ProbeSpec.Start.TIMER_EXPIRY
          ? "the probe did not sleep (a real-time nanosleep of 2 ms or less busy-waits)"
          : "the probe was already runnable (a period was pending at its read)";
    }
    if (c instanceof Cause.SwitchedAtOnce) {
      return "switched to at once";
    }
    if (c instanceof Cause.ReturnToUser) {
      return "schedule(), the context switch and the return to user mode";
    }
    if (c instanceof Cause.Idle) {
      return "the CPU was idle: leaving the idle loop";
    }
    if (c instanceof Cause.UserMode u) {
      return u.task() + " was in user mode: preempted on the interrupt's return";
    }
    if (c instanceof Cause.InterruptHandler h) {
      return "interrupt handler " + where(h.handler()) + " on " + h.task() + "'s stack for " + us(h.ns());
    }
    if (c instanceof Cause.SoftirqRunning s) {
      return "softirq " + where(s.path()) + " above " + s.task() + " for " + us(s.ns());
    }
    if (c instanceof Cause.OtherHolders o) {
      return o.count() + " more holders, the shortest, together for " + us(o.ns());
    }
    if (c instanceof Cause.InterruptsOff o) {
      return "interrupts off in " + o.path().location() + " for " + us(o.ns());
    }
    if (c instanceof Cause.PriorityNotLower p) {
      return p.holder() + " on " + policy(p.policy()) + " " + p.priority() + ", not below " + p.waiter() + "'s "
          + p.waiterPriority() + ": " + cause(p.held());
    }
    if (c instanceof Cause.LentPriority p) {
      return p.task() + " on real-time priority " + p.priority() + ", " + lentBy(p.chain()) + ", in "
          + where(p.path()) + " for " + us(p.ns());
    }
    if (c instanceof Cause.SpinlockHeld s) {
      return (s.raw() ? "raw spinlock " : "spinlock ") + s.lock().name() + " held by " + s.task() + " in " + where(s.path()) + " for " + us(s.ns());
    }
    if (c instanceof Cause.BigKernelLockHeld b) {
      return "the big kernel lock held by " + b.task() + " in " + where(b.path()) + " for " + us(b.ns());
    }
    if (c instanceof Cause.BottomHalvesOff b) {
      return "bottom halves off in " + b.task() + " in " + where(b.path()) + " for " + us(b.ns());
    }
    if (c instanceof Cause.PreemptCountHeld p) {
      return "preempt_count " + p.depth() + " in " + p.task() + " in " + where(p.path()) + " for " + us(p.ns());
    }
    if (c instanceof Cause.NotPreemptible n) {
      return n.kernelPreemptible()
          ? n.task() + " not preemptible in " + where(n.path()) + " for " + us(n.ns())
          : "not preemptible: " + n.task() + " in kernel mode until its next reschedule point in " + where(n.path())
              + " for " + us(n.ns());
    }
    if (c instanceof Cause.Declared d) {
      return d.cause().describe(d.hold());
    }
    throw new IllegalArgumentException("no words for " + c);
  }

  /**
   * Who lent a priority: {@code lent by high[12] waiting for lock_a}, and along the chain
   * {@code , itself lent it by top[13] waiting for lock_b}; a loan whose source was not seen,
   * by what it must have been.
   */
  private static String lentBy(List<Cause.Loan> chain) {
    if (chain.isEmpty()) {
      return "lent by a task waiting for its lock";
    }
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < chain.size(); i++) {
      Cause.Loan l = chain.get(i);
      b.append(i == 0 ? "lent by " : ", itself lent it by ").append(l.lender())
          .append(" waiting for ").append(l.lock().name());
    }
    return b.toString();
  }

  /** A policy as sched.h names it. */
  private static String policy(SchedPolicy p) {
    return "SCHED_" + p.name();
  }

  /** A loop body by its site, anything else by its file and function. */
  private static String where(PathView p) {
    if (p == null) {
      return "(no path)";
    }
    return p.site() != null ? p.site().key() : p.location();
  }

  private static String us(long ns) {
    return String.format(Locale.ROOT, "%.1f us", ns / 1000.0);
  }
}
