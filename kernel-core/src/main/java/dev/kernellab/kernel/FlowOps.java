package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.Operation;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.TaskState;

/**
 * Operations that shape control flow and spend time: compute, loops at named sites, calls,
 * zero-time driver code, {@code set_current_state}.
 *
 * <p>Models the control flow of the C functions a {@link KernelPath} stands for, plus
 * include/linux/sched.h {@code set_current_state()} (2.4.17); a loop's {@link Site} is where
 * a patch's reschedule point sits, as in the low-latency patch's hunks.
 */
final class FlowOps {

  private FlowOps() {}

  /** Runs for a drawn length, in the path's mode (user or kernel). */
  static final class Compute extends Op {
    final Distribution length;

    Compute(Distribution length) {
      this.length = length;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      long ns = length.sample(c.random(ctx));
      if (f.iterationsLeft > 0 && ns > 0 && f.path.size() == 1 && f.siteHook == null && f.whileCondition == null
          && length instanceof Distribution.Fixed && f.path.site() != null) {
        // A loop whose body is this one fixed compute, with no hook between iterations: the
        // iterations that end before anything else can happen on the machine are one segment.
        long until = c.cpu.inlineComputeUntil();
        long fit = until == Long.MIN_VALUE ? 0 : (until - k.now()) / ns;
        if (fit >= 2) {
          long run = f.iterationsLeft >= fit ? fit : f.iterationsLeft + 1;
          f.iterationsLeft -= run - 1;
          f.iteration += run - 1;
          c.compute(f, ns * run, true, run);
          return;
        }
      }
      c.compute(f, ns, true);
    }

    @Override
    String describe() {
      return length instanceof Distribution.Fixed fixed
          ? "compute(" + fixed.value() + " ns)"
          : "compute(" + length + ")";
    }
  }

  /** Runs for a length the kernel computes at that instant (schedule() cost, entry costs). */
  static final class DynamicCompute extends Op {
    interface Length {
      long ns(Kernel k, KernelCpu c);
    }

    final String what;
    final Length length;

    DynamicCompute(String what, Length length) {
      this.what = what;
      this.length = length;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      long ns = length.ns(k, c);
      if (ns < 0) {
        throw new IllegalStateException("compute(" + what + "): its length is " + ns + " ns, a length is 0 or more");
      }
      c.compute(f, ns, true);
    }

    @Override
    String describe() {
      return "compute(" + what + ")";
    }
  }

  /** A loop at a {@link Site}: the body runs {@code count} times; site hooks run in between. */
  static final class Loop extends Op {
    final Site site;
    final Distribution count; // or null, then:
    final Count dynamicCount;
    final KernelPath body;

    Loop(Site site, Distribution count, KernelPath body) {
      this.site = site;
      this.count = count;
      this.dynamicCount = null;
      this.whileCondition = null;
      this.body = body;
      this.hook = new SiteHook(site);
    }

    Loop(Site site, Count count, KernelPath body) {
      this(site, count, null, body);
    }

    Loop(Site site, Count count, Guard whileCondition, KernelPath body) {
      this.site = site;
      this.count = null;
      this.dynamicCount = count;
      this.whileCondition = whileCondition;
      this.body = body;
      this.hook = new SiteHook(site);
    }

    final Guard whileCondition; // or null: a counted loop; else tested before every iteration
    private final SiteHook hook;

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      long n = c.forcedLoop == this && c.forcedIn == ctx ? c.takeForcedCount()
          : count != null ? count.sample(c.random(ctx)) : dynamicCount.at(c);
      if (n < 0) {
        // a Count is the caller's code: a negative one is its bug, not an empty loop
        throw new IllegalStateException("loop " + site.key() + ": its count is " + n + ", a count is 0 or more");
      }
      f.advance();
      if (n > 0 && (whileCondition == null || whileCondition.test(c))) {
        ExecContext.Frame b = ctx.push(body, f.user);
        b.iterationsLeft = n - 1;
        b.siteHook = hook.in(k);
        b.whileCondition = whileCondition;
      }
    }

    @Override
    String describe() {
      return "loop " + site.key() + " x " + (count != null ? count : "(worked out on entry)");
    }
  }

  /**
   * A {@link Site} in straight-line code: runs what a patch hooked there, once, and nothing in
   * a kernel without such a patch (the low-latency patch's {@code conditional_schedule()} after
   * a statement rather than inside a loop).
   */
  static final class Point extends Op {
    final Site site;
    private final SiteHook hook;

    Point(Site site) {
      this.site = site;
      this.hook = new SiteHook(site);
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      f.advance();
      KernelPath h = hook.in(k);
      if (h != null) {
        ctx.push(h, false);
      }
    }

    @Override
    String describe() {
      return "site " + site.key();
    }
  }

  /** {@code might_sleep()}: the hook of {@link KernelPath#MIGHT_SLEEP}, if a patch installed one. */
  @Models(file = "include/linux/kernel.h", function = "might_sleep", version = "2.6.13")
  static final class MightSleep extends Op {
    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      f.advance();
      if (k.mightSleepHook != null) {
        ctx.push(k.mightSleepHook, false);
      }
    }

    @Override
    String describe() {
      return "might_sleep()";
    }
  }

  /** Calls another path. */
  static final class Call extends Op {
    final KernelPath target;

    Call(KernelPath target) {
      this.target = target;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      f.advance();
      ctx.push(target, false);
    }

    @Override
    String describe() {
      return target.function() + "()";
    }
  }

  /**
   * Calls one path if a guard says so, another (or nothing) if not
   * ({@code if (!down_trylock(&sem)) f(); else g();}).
   */
  static final class CallIf extends Op {
    final String description;
    final Guard guard;
    final KernelPath target;
    final KernelPath otherwise; // or null

    CallIf(String description, Guard guard, KernelPath target, KernelPath otherwise) {
      this.description = description;
      this.guard = guard;
      this.target = target;
      this.otherwise = otherwise;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      f.advance();
      KernelPath p = guard.test(c) ? target : otherwise;
      if (p != null) {
        ctx.push(p, false);
      }
    }

    @Override
    String describe() {
      return "if (" + description + ") " + target.function() + "()"
          + (otherwise == null ? "" : " else " + otherwise.function() + "()");
    }
  }

  /**
   * Zero-time Java code. If it woke a task from process context, the end of the effect is a
   * preemption point, as the wake-up's {@code spin_unlock_irqrestore} is under CONFIG_PREEMPT.
   */
  static final class Effect extends Op {
    final String description;
    final Action action;
    final boolean bookkeeping; // declared to touch the model's own counts only (Builder.bookkeeping)

    Effect(String description, Action action) {
      this(description, action, false);
    }

    Effect(String description, Action action, boolean bookkeeping) {
      this.description = description;
      this.action = action;
      this.bookkeeping = bookkeeping;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      f.advance();
      action.run(c);
      if (!f.user) {
        c.preemptCheck(ctx); // user code is preempted at its next interrupt, not here
      }
    }

    @Override
    String describe() {
      return description;
    }
  }

  /** {@code set_current_state(state)}. */
  @Models(file = "include/linux/sched.h", function = "set_current_state", version = "2.4.17")
  static final class SetState extends Op {
    final TaskState state;

    SetState(TaskState state) {
      this.state = state;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      c.current.setState(state);
      f.advance();
    }

    @Override
    String describe() {
      return "set_current_state(TASK_" + state + ")";
    }
  }

  /** A primitive defined outside the kernel through {@link Operation}, run phase by phase. */
  static final class Custom extends Op {
    final Operation operation;

    Custom(Operation operation) {
      this.operation = operation;
    }

    @Override
    void exec(Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
      OperationStep s = c.operationStep;
      s.reset();
      int next = operation.step(s, f.phase);
      if (next < 0 && next != Operation.DONE) {
        throw new IllegalStateException(operation.describe() + ": step returned phase " + next);
      }
      KernelPath call = s.calledPath();
      long ns = s.computeNs();
      boolean done = next == Operation.DONE;
      if (call == null && ns >= 0) {
        if (!done) {
          f.phase = next;
        }
        c.compute(f, ns, done);
        return;
      }
      if (done) {
        f.advance();
      } else {
        f.phase = next;
      }
      if (call != null) {
        ctx.push(call, false);
      }
    }

    @Override
    String describe() {
      return operation.describe();
    }
  }
}
