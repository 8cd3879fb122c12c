package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.Site;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a kernel path holds where, read from its operations without running it: each loop and
 * each stretch of straight-line work, with the interrupt flag, the bottom-half count, the
 * spinlocks, the big kernel lock and the explicit preempt count in force around it. This is how
 * a listing of latency sources ({@code kernel-lab list sources}) is generated from the code
 * rather than written by hand: a path added to a catalog appears in it as soon as it exists.
 *
 * <pre>{@code
 * for (HoldRegions.Region r : HoldRegions.of(paths.vmscan().kswapd)) {
 *   System.out.println(r.where() + " holds " + r.held() + " for " + r.length());
 * }
 * }</pre>
 *
 * <p>Implementation overview. A depth-first walk over the operations, carrying the held state
 * as a stack of the operations that took something ({@code spin_lock_irq(&io_request_lock)},
 * {@code lock_kernel()}, {@code local_bh_disable()}); a release pops the innermost entry it
 * matches, so a path entered with a lock its caller took (and releases) does not underflow.
 * A call is walked in place (a helper that takes a lock and returns keeps it held); the two
 * branches of a conditional call are walked on copies and assumed balanced. A loop body is
 * walked once, as one iteration. A path that calls itself, directly or not, is walked once per
 * chain. What a path does when it runs (which branch, how many iterations) is the run's
 * business, not this walk's: a region is code that <em>can</em> run with that state.
 */
public final class HoldRegions {

  private HoldRegions() {}

  /**
   * A stretch of kernel code with what is held around it.
   *
   * @param file the kernel source file of the code
   * @param function the C function of the code
   * @param site the loop site, empty for straight-line work in {@code function}
   * @param perIteration true for straight-line work inside one iteration of the loop at
   *     {@code site} that holds more than the loop does (the lock each iteration takes)
   * @param held the operations in force around it, outermost first (empty: nothing held; only
   *     the non-preemptible kernel itself keeps the CPU)
   * @param irqsOff whether interrupts are off around it
   * @param bhOff whether bottom halves are off around it
   * @param length what its length is: the loop's count ({@code x} a distribution, or "worked out
   *     on entry" from the load's state) with the work of one iteration, or the compute
   *     operations of the straight-line work
   * @param reschedules true if the loop's own body has a reschedule point or a lock break
   *     ({@code cond_resched()}, {@code cond_resched_lock()}) in this kernel without any patch
   */
  public record Region(String file, String function, Optional<Site> site, boolean perIteration,
      List<String> held, boolean irqsOff, boolean bhOff, String length, boolean reschedules) {

    /** Copies the list. */
    public Region {
      held = List.copyOf(held);
    }

    /**
     * The site's key, {@code file:function} for straight-line work, or the site's key and
     * "(each iteration)" for work inside one iteration of a loop under more than the loop holds.
     */
    public String where() {
      if (perIteration) {
        return site.map(Site::key).orElseThrow() + " (each iteration)";
      }
      return site.map(Site::key).orElse(file + ":" + function);
    }
  }

  /**
   * The regions of {@code path} and every path it calls, in program order: each loop (held or
   * not, unless its body can sleep or schedule, which makes it no stretch of CPU time), and the
   * straight-line work of each function that runs with something held, one region per function
   * and held state.
   */
  public static List<Region> of(KernelPath path) {
    List<Region> out = new ArrayList<>();
    walk(path, new ArrayList<>(), new ArrayList<>(), out);
    return out;
  }

  private static void walk(KernelPath p, List<String> held, List<KernelPath> chain, List<Region> out) {
    walk(p, held, chain, out, null);
  }

  /**
   * Walks {@code p} with {@code held} in force (updated in place). {@code each}, for a loop
   * body, collects the body's own work done under what the loop holds: that is the iteration's
   * length, shown on the loop's row rather than as a row of its own.
   */
  private static void walk(KernelPath p, List<String> held, List<KernelPath> chain, List<Region> out,
      List<String> each) {
    for (KernelPath q : chain) {
      if (q == p) {
        return;
      }
    }
    chain.add(p);
    Site own = p.site();
    String file = own != null ? own.file() : p.file();
    String function = own != null ? own.function() : p.function();
    List<String> entry = List.copyOf(held);
    List<String> computes = new ArrayList<>();
    List<String> computeHeld = List.of();
    boolean idle = false; // something was taken and nothing has run since: a hold of no time
    for (int i = 0; i < p.size(); i++) {
      Op op = p.op(i);
      boolean releases = op instanceof LockOps.Release || op instanceof LockOps.UnlockKernel
          || op instanceof IrqOps.IrqEnable || op instanceof IrqOps.IrqRestore
          || op instanceof IrqOps.PreemptEnable || op instanceof IrqOps.BhEnable;
      boolean wasIdle = idle;
      if (releases && idle && !held.isEmpty()) {
        out.add(new Region(file, function, Optional.ofNullable(own), own != null, held, irqsOff(held),
            bhOff(held), "no time (only bookkeeping is modelled under it)", false));
      }
      idle = false;
      if (op instanceof LockOps.Acquire a) {
        held.add(a.describe());
        idle = true;
      } else if (op instanceof LockOps.Release r) {
        release(held, "(&" + r.lock.name() + ")");
      } else if (op instanceof LockOps.LockKernel k) {
        held.add(k.describe());
        idle = true;
      } else if (op instanceof LockOps.UnlockKernel) {
        release(held, "lock_kernel()");
      } else if (op instanceof IrqOps.IrqDisable || op instanceof IrqOps.IrqSave
          || op instanceof IrqOps.PreemptDisable || op instanceof IrqOps.BhDisable) {
        held.add(op.describe());
        idle = true;
      } else if (op instanceof IrqOps.IrqEnable || op instanceof IrqOps.IrqRestore) {
        release(held, "local_irq_");
      } else if (op instanceof IrqOps.PreemptEnable) {
        release(held, "preempt_disable()");
      } else if (op instanceof IrqOps.BhEnable) {
        release(held, "local_bh_disable()");
      } else if (op instanceof FlowOps.Effect || op instanceof FlowOps.SetState) {
        idle = wasIdle; // zero-time bookkeeping: a hold of no time stays one
      } else if (op instanceof FlowOps.Compute || op instanceof FlowOps.DynamicCompute) {
        if (each != null && held.equals(entry)) {
          each.add(op.describe());
        } else if (!held.isEmpty()) {
          if (!computeHeld.equals(held)) {
            flush(file, function, own, computeHeld, computes, out);
            computeHeld = List.copyOf(held);
          }
          computes.add(op.describe());
        }
      } else if (op instanceof FlowOps.Loop l) {
        List<Region> inner = new ArrayList<>();
        List<String> work = new ArrayList<>();
        walk(l.body, new ArrayList<>(held), chain, inner, work);
        if (!held.isEmpty() || !blocks(l.body, new ArrayList<>())) {
          String count = l.count != null ? "x " + l.count : "x (worked out on entry)";
          out.add(new Region(l.site.file(), l.site.function(), Optional.of(l.site), false, held,
              irqsOff(held), bhOff(held), work.isEmpty() ? count : count + ", each " + String.join(" + ", work),
              reschedules(l.body)));
        }
        out.addAll(inner);
      } else if (op instanceof FlowOps.Call c) {
        walk(c.target, held, chain, out);
      } else if (op instanceof FlowOps.Custom o) {
        for (PathView callee : o.operation.mayCall()) {
          if (callee instanceof KernelPath target) { // a step can call no other kind (OperationStep.call)
            walk(target, new ArrayList<>(held), chain, out);
          }
        }
      } else if (op instanceof FlowOps.CallIf c) {
        walk(c.target, new ArrayList<>(held), chain, out);
        if (c.otherwise != null) {
          walk(c.otherwise, new ArrayList<>(held), chain, out);
        }
      }
    }
    flush(file, function, own, computeHeld, computes, out);
    chain.remove(chain.size() - 1);
  }

  private static void flush(String file, String function, Site body, List<String> held, List<String> computes,
      List<Region> out) {
    if (!computes.isEmpty()) {
      out.add(new Region(file, function, Optional.ofNullable(body), body != null, held, irqsOff(held), bhOff(held),
          String.join(" + ", computes), false));
      computes.clear();
    }
  }

  /** Pops the innermost entry containing {@code what}; nothing if none does. */
  private static void release(List<String> held, String what) {
    for (int i = held.size() - 1; i >= 0; i--) {
      if (held.get(i).contains(what)) {
        held.remove(i);
        return;
      }
    }
  }

  private static boolean irqsOff(List<String> held) {
    for (String h : held) {
      if (h.startsWith("local_irq_") || h.contains("_irq(") || h.contains("_irqsave(")) {
        return true;
      }
    }
    return false;
  }

  private static boolean bhOff(List<String> held) {
    for (String h : held) {
      if (h.startsWith("local_bh_") || h.contains("_bh(")) {
        return true;
      }
    }
    return false;
  }

  /** True if {@code p}'s own operations include a reschedule point or a lock break. */
  private static boolean reschedules(KernelPath p) {
    for (int i = 0; i < p.size(); i++) {
      Op op = p.op(i);
      if (op instanceof SchedOps.CondResched || op instanceof CondReschedLock.Break) {
        return true;
      }
    }
    return false;
  }

  /** True if {@code p} or a path it calls can sleep or call schedule(). */
  private static boolean blocks(KernelPath p, List<KernelPath> seen) {
    for (KernelPath q : seen) {
      if (q == p) {
        return false;
      }
    }
    seen.add(p);
    for (int i = 0; i < p.size(); i++) {
      Op op = p.op(i);
      if (op instanceof TaskOps.WaitEvent || op instanceof TaskOps.SleepTimeout
          || op instanceof SchedOps.CallSchedule || op instanceof SchedOps.Yield
          || op instanceof IoOps.DiskIo
          || op instanceof TaskOps.Fork fork && fork.vfork) {
        return true;
      }
      if (op instanceof FlowOps.Loop l && blocks(l.body, seen)
          || op instanceof FlowOps.Call c && blocks(c.target, seen)
          || op instanceof FlowOps.CallIf ci && (blocks(ci.target, seen)
              || ci.otherwise != null && blocks(ci.otherwise, seen))) {
        return true;
      }
    }
    return false;
  }
}
