package dev.kernellab.kernel;

import dev.kernellab.hw.Cpu;
import dev.kernellab.kernel.spi.Site;

/**
 * Fast-forward between events: the iterations of a loop that run before anything outside the
 * CPU can act are run by one interpreter step, without the interpreter's round per operation,
 * with the same clock, events, counters, lock statistics and random draws as operation by
 * operation.
 *
 * <p>Not a kernel function: an engine shortcut of the interpreter, like the inline segment
 * ends of {@link Cpu#finishInlineCompute()}.
 */
final class FastForward {

  /*
   * Implementation overview
   *
   * Why it is exact. Inside the inline window (Cpu.computeInline: started from a segment-end
   * handler, nothing armed before the segment's end, no interrupt deliverable) no event fires, so
   * no other CPU, device or timer runs: what this CPU does depends only on its own state and
   * its own random stream. The runner does what the interpreter's loop does, operation by
   * operation, in the same order and at the same simulated instants: each compute moves the
   * clock and counts its event exactly as a segment that ends inline does (Cpu.computeInline),
   * so a lock taken or released, a preempt count changed or an effect run sees the instant it
   * sees today, and a drawn length is drawn at the same point of the stream. What it leaves
   * out is the interpreter's dispatch: the frame per hook call, the segment started and ended,
   * the checks that cannot fire (see below). Two runners go further, each exact for the bodies
   * it takes: runFixed (fixed computes, breaks and effects) checks for an interrupt only after
   * an effect, the one operation there that could raise one; bulk (the same with bookkeeping
   * effects only) runs whole iterations as one step, its actions back to back before the clock
   * moves, which the bookkeeping promise (KernelPath.Builder.bookkeeping) makes unobservable;
   * and a page-touch loop's iterations are played from their flattened IterationScript (its
   * overview says why that is exact).
   *
   * Where. The interpreter hands a loop over at its entry, for the first iteration (enter), and
   * at each end of its body with iterations left, for the following ones (run).
   *
   * Which loops. Decided when a path is built (plan): a loop body whose operations are all
   * compute, spin_lock / spin_unlock in every form (and the rwlock forms, lock_kernel and
   * unlock_kernel), the interrupt flag, preempt count and bottom-half operations, cond_resched,
   * a lock break, an effect, might_sleep or a site point, or a call (or a guarded call) of a
   * function whose operations are all of these, with at least one compute (an iteration takes
   * time) or an IterationScript (whose computes, in a fault's handler, take it); a site hook
   * whose operations are compute of a fixed length, cond_resched or a lock break (the patches'
   * reschedule points). A loop inside is entered as the interpreter enters
   * it (its count drawn or worked out) and run the same way if its body qualifies; else the
   * runner stops there. A page fault whose handler qualifies as a called function is run as
   * the interpreter runs it: the exception's frames pushed, the handler, then ret_from_exception,
   * whose decision (need_resched to user, a preemption to kernel) stops the runner where it
   * calls schedule(). Anything else (an Operation, a sleep, a wake-up, schedule(), a while
   * loop's guard) keeps the loop interpreted. A body of
   * one fixed compute and no hook is left to the interpreter's own batch (FlowOps.Compute),
   * cheaper still. What might_sleep and a point push is the kernel's (a patch's hook): run if
   * its path qualifies as a called function, else the runner stops there.
   *
   * Stopping exactly. Before each operation the runner checks what the interpreter's loop
   * would check (a deliverable interrupt, a tracer that wants per-operation detail on this
   * CPU) and, for the tests that decide to leave the straight path (a lock break or
   * cond_resched that is due, a lock that is held, a compute that does not fit the window), it
   * asks the same pure question the operation asks (CondReschedLock.When and the
   * PreemptionModel's answers change no state). If the answer leaves the straight path, it
   * stops before the operation, with the frames as the interpreter has them at that point (a
   * hook's frame pushed at its operation), and the interpreter runs the operation itself: the
   * compute that straddles the window's end is started as a segment and an interrupt splits
   * it where it does today. After an operation that runs the kernel's own code (a lock
   * operation, an effect) it checks what that code may have changed (a frame pushed, the
   * context or task switched, a segment started) and stops the same way. The soft-lockup
   * guard counts the same steps.
   */

  static final byte COMPUTE = 1;
  static final byte BREAK = 2;
  static final byte COND_RESCHED = 3;
  static final byte ACQUIRE = 4;
  static final byte RELEASE = 5;
  static final byte EFFECT = 6;
  static final byte CALL = 7;
  static final byte STEP = 8;
  static final byte LOOP = 9;
  static final byte FAULT = 10;

  private final Kernel k;
  private final Interpreter interpreter;
  private boolean on = switchedOn(System.getProperty("kernellab.fastForward"));
  private long ops; // operations run by the runner (not counted in Interpreter.opsExecuted)
  private long entered; // loops whose first iteration enter() ran
  private long scripted; // iterations run from an IterationScript
  private final long[] stops = new long[2]; // scripts stopped in ret_from_exception's cli, iret
  private long forced; // draws of a script left for the loop to take
  OperationProfile.Counter profile; // the interpreter's, while it profiles; else null

  /** {@code -Dkernellab.fastForward}: unset or true is on, false is off, anything else refused. */
  static boolean switchedOn(String property) {
    if (property == null || property.equals("true")) {
      return true;
    }
    if (property.equals("false")) {
      return false;
    }
    throw new IllegalArgumentException("-Dkernellab.fastForward=" + property + ": true or false");
  }

  FastForward(Kernel k, Interpreter interpreter) {
    this.k = k;
    this.interpreter = interpreter;
  }

  void setOn(boolean on) {
    this.on = on;
  }

  boolean isOn() {
    return on;
  }

  long opsRun() {
    return ops;
  }

  /**
   * What {@link IterationScript#run} ran: {@code iterations} whole iterations of {@code s},
   * body {@code body}, and the steps and operations of a part of one stopped in its return.
   */
  void scripted(IterationScript s, KernelPath body, KernelPath ret, long iterations, long partOps) {
    scripted += iterations;
    ops += iterations * s.operations + partOps;
    if (profile != null && iterations > 0) {
      profile.countFastForwarded(body, iterations * s.bodyOps);
      profile.countFastForwarded(ret, iterations * s.returnOps);
      for (int i = 0; i < s.called.length; i++) {
        profile.countFastForwarded(s.called[i], iterations * s.calledOps[i]);
      }
    }
  }

  /** A script stopped in its return's cli (0) or iret (1). */
  void scriptStopped(int phase) {
    stops[phase]++;
  }

  /** A script's draw came out other than 0 and is left for the loop to take. */
  void drawLeft() {
    forced++;
  }

  /** Iterations run from a loop body's {@link IterationScript}, for tests. */
  long scriptedIterations() {
    return scripted;
  }

  /** Scripts stopped by a tracer in ret_from_exception's cli (0) or iret (1), for tests. */
  long scriptStops(int phase) {
    return stops[phase];
  }

  /** Loops whose first iteration the runner took from the interpreter's loop entry, for tests. */
  long enteredLoops() {
    return entered;
  }

  /** Draws of a script that came out other than 0, left for the loop to take, for tests. */
  long forcedCounts() {
    return forced;
  }

  /**
   * The plan of a loop body (one code per operation), or null if the loop is interpreted: see
   * the implementation overview for which bodies qualify. {@code scripted}: the body has an
   * {@link IterationScript}, whose iterations take time even with no compute of the body's own
   * (a page-touch loop of faults alone).
   */
  static byte[] bodyPlan(Op[] ops, Site site, boolean scripted) {
    if (site == null || ops.length == 0) {
      return null;
    }
    byte[] plan = straight(ops);
    if (plan == null || scripted) {
      return plan;
    }
    for (byte code : plan) {
      if (code == COMPUTE) {
        return plan;
      }
    }
    return null; // an iteration that may take no time stays interpreted
  }

  /**
   * The plan of a path a qualifying body calls (a function, not a loop body), or null if a body
   * that calls it is interpreted.
   */
  static byte[] callPlan(Op[] ops, Site site) {
    return site == null ? straight(ops) : null;
  }

  /** One code per operation if each is one the runner runs, else null. */
  private static byte[] straight(Op[] ops) {
    byte[] plan = new byte[ops.length];
    for (int i = 0; i < ops.length; i++) {
      Op op = ops[i];
      if (op instanceof FlowOps.Compute) {
        plan[i] = COMPUTE;
      } else if (op instanceof CondReschedLock.Break) {
        plan[i] = BREAK;
      } else if (op instanceof SchedOps.CondResched) {
        plan[i] = COND_RESCHED;
      } else if (op instanceof LockOps.Acquire) {
        plan[i] = ACQUIRE;
      } else if (op instanceof LockOps.Release) {
        plan[i] = RELEASE;
      } else if (op instanceof FlowOps.Effect) {
        plan[i] = EFFECT;
      } else if (op instanceof IrqOps.IrqDisable || op instanceof IrqOps.IrqEnable || op instanceof IrqOps.IrqSave
          || op instanceof IrqOps.IrqRestore || op instanceof IrqOps.PreemptDisable
          || op instanceof IrqOps.PreemptEnable || op instanceof IrqOps.BhDisable || op instanceof IrqOps.BhEnable
          || op instanceof LockOps.LockKernel || op instanceof LockOps.UnlockKernel
          || op instanceof TaskOps.ExceptionReturn) {
        plan[i] = STEP;
      } else if (op instanceof FlowOps.Call call && call.target.fastForwardCall() != null) {
        plan[i] = CALL;
      } else if (op instanceof FlowOps.CallIf call && call.target.fastForwardCall() != null
          && (call.otherwise == null || call.otherwise.fastForwardCall() != null)) {
        plan[i] = CALL;
      } else if (op instanceof TaskOps.Fault fault && fault.handler.fastForwardCall() != null) {
        plan[i] = FAULT; // the handler, then ret_from_exception, each run if it stays straight
      } else if (op instanceof FlowOps.Loop) {
        plan[i] = LOOP; // its body is run if it qualifies, else the runner stops where it starts
      } else if (op instanceof FlowOps.MightSleep || op instanceof FlowOps.Point) {
        plan[i] = CALL; // what a patch hooked there is looked at when it is pushed
      } else {
        return null;
      }
    }
    return plan;
  }

  /**
   * For a loop body of {@code plan} whose operations are computes of a fixed length, lock
   * breaks, cond_resched and effects only, each compute's length (0 at the others), run by
   * {@link #iterateFixed}; else null.
   */
  static long[] fixedLengths(Op[] ops, byte[] plan) {
    if (plan == null) {
      return null;
    }
    long[] lengths = new long[ops.length];
    for (int i = 0; i < ops.length; i++) {
      switch (plan[i]) {
        case COMPUTE -> {
          if (!(((FlowOps.Compute) ops[i]).length instanceof Distribution.Fixed fixed)) {
            return null;
          }
          lengths[i] = fixed.value();
        }
        case BREAK, COND_RESCHED, EFFECT -> lengths[i] = 0;
        default -> {
          return null;
        }
      }
    }
    return lengths;
  }

  static final int BULK_NS = 0; // an iteration's compute time
  static final int BULK_SEGMENTS = 1; // the compute segments it ends (its computes longer than 0)
  static final int BULK_EFFECTS = 2; // its bookkeeping effects

  /**
   * The shape {@link #bulk} needs of a loop body of fixed computes, lock breaks, cond_resched
   * and bookkeeping effects ({@link KernelPath.Builder#bookkeeping}) that takes time, indexed
   * by the BULK_ constants; else null.
   */
  static long[] bulkShape(Op[] ops, long[] lengths) {
    if (lengths == null) {
      return null;
    }
    long[] shape = new long[3];
    for (int i = 0; i < ops.length; i++) {
      if (ops[i] instanceof FlowOps.Effect e) {
        if (!e.bookkeeping) {
          return null;
        }
        shape[BULK_EFFECTS]++;
      }
      if (lengths[i] > 0) {
        shape[BULK_NS] += lengths[i];
        shape[BULK_SEGMENTS]++;
      }
    }
    return shape[BULK_NS] > 0 ? shape : null;
  }

  /** {@link #bulkShape} of a site hook with plan {@code plan} (its computes are fixed). */
  static long[] hookBulkShape(Op[] ops, byte[] plan) {
    if (plan == null) {
      return null;
    }
    long[] shape = new long[3];
    for (int i = 0; i < ops.length; i++) {
      if (plan[i] == COMPUTE) {
        long ns = ((Distribution.Fixed) ((FlowOps.Compute) ops[i]).length).value();
        if (ns > 0) {
          shape[BULK_NS] += ns;
          shape[BULK_SEGMENTS]++;
        }
      }
    }
    return shape;
  }

  /** The plan of a site hook, or null if a loop with this hook is interpreted. */
  static byte[] hookPlan(Op[] ops) {
    byte[] plan = new byte[ops.length];
    for (int i = 0; i < ops.length; i++) {
      Op op = ops[i];
      if (op instanceof FlowOps.Compute c && c.length instanceof Distribution.Fixed) {
        plan[i] = COMPUTE;
      } else if (op instanceof CondReschedLock.Break) {
        plan[i] = BREAK;
      } else if (op instanceof SchedOps.CondResched) {
        plan[i] = COND_RESCHED;
      } else {
        return null;
      }
    }
    return plan;
  }

  /**
   * True if a tracer wants per-operation detail on {@code c} now: paths, locks, the preempt
   * count. (The exits of loop bodies with interrupts off do not stop it: runLoop tells a tracer
   * of a nested loop's end as the interpreter does, and a hook is no loop body.)
   */
  static boolean detailWanted(KernelCpu c) {
    return (c.pathTracers | c.lockTracers | c.preemptTracers) != 0;
  }

  /**
   * Called by the interpreter where the loop body of {@code f} has ended and another iteration
   * is to start ({@code f.iterationsLeft > 0}, no while guard), after it counted that step.
   * Runs iterations for as long as they stay on the straight path and inside the window, and
   * returns true with the frames where the interpreter would have them; false, changing
   * nothing, if it ran nothing (the interpreter starts the iteration itself).
   */
  boolean run(KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
    byte[] plan = f.path.fastForwardBody();
    KernelPath hook = f.siteHook;
    byte[] hookPlan = hook == null ? null : hook.fastForwardHook();
    if (!on || plan == null || (hook != null && (hookPlan == null || hook.site() != null)) || detailWanted(c)
        || c.cpu.inlineComputeUntil() == Long.MIN_VALUE) {
      return false;
    }
    if (interpreterBatch(f, plan)) {
      return false;
    }
    boolean first = true;
    while (true) {
      if (!first) {
        // the body's end, where the interpreter counts a step and starts the next iteration
        if (f.iterationsLeft == 0 || detailWanted(c) || c.cpu.hasDeliverableInterrupt()) {
          return true;
        }
        interpreter.countStep(c);
      }
      first = false;
      bulk(c, ctx, f, plan);
      if (f.path.fastForwardScript() != null && !f.path.fastForwardScript().run(this, k, c, ctx, f)) {
        return true;
      }
      boolean atEnd = iterate(c, ctx, f, plan);
      if (c.forcedLoop != null) {
        // iterate() runs straight to the drawn loop: nothing before it in the iteration can stop it
        throw new IllegalStateException("fast-forward: a drawn count of " + c.forcedLoop + " was not taken");
      }
      if (!atEnd) {
        return true;
      }
    }
  }

  /**
   * Called by the interpreter where a loop operation has just pushed its body's frame {@code b}
   * (its count drawn, the body's first operation next): runs that first iteration's operations
   * as {@link #iterate} runs a later one's (runFixed or runFrame), up to the body's end or to
   * where one leaves the straight path, with the frames left where the interpreter would have
   * them. The step of the body's end is the interpreter's, which hands the following iterations
   * to {@link #run}. Without it a loop of one iteration never reached the runner, and one of two
   * or three (the page cache's usual read or write) ran half or more of its operations one by
   * one.
   */
  void enter(KernelCpu c, ExecContext ctx, ExecContext.Frame b) {
    byte[] plan = b.path.fastForwardBody();
    if (!on || plan == null || b.whileCondition != null || detailWanted(c)
        || c.cpu.inlineComputeUntil() == Long.MIN_VALUE || interpreterBatch(b, plan)) {
      return; // the interpreter runs it
    }
    long before = ops;
    runBody(c, ctx, b, plan);
    if (ops != before) {
      entered++;
    }
  }

  /**
   * At the end of the body {@code f}, its step counted: the whole iterations that follow and
   * certainly run on the straight path, as one step, when the body's shape allows it
   * ({@link #bulkShape}), leaving at least one iteration to {@link #iterate} after them.
   *
   * <p>Why it is exact. Inside the window nothing but this CPU acts, and such a body changes
   * nothing that its own tests read: its computes are of fixed lengths, its effects bookkeeping,
   * so whether a lock break or cond_resched is due at an iteration (a pure test of the
   * iteration's number and of state the body does not touch), whether an effect's preemption
   * check would push preempt_schedule(), whether an interrupt is deliverable and what a tracer
   * wants are known for every iteration before it runs. The iterations that fit the window and
   * come before the first due test are then run as the runner runs them, less what it would
   * find unchanged: the bookkeeping actions in order, each seeing its iteration's number, the
   * clock moved to their end with one event per compute (Cpu.computeInline), the operation
   * counts, and the soft-lockup guard's steps.
   */
  private void bulk(KernelCpu c, ExecContext ctx, ExecContext.Frame f, byte[] plan) {
    long[] shape = f.path.fastForwardBulk();
    if (shape == null || f.iterationsLeft < 2) {
      return;
    }
    KernelPath hook = f.siteHook;
    // run() admitted only a hook with a plan, and every such hook has a shape
    long[] hookShape = hook == null ? null : hook.fastForwardHookBulk();
    long period = shape[BULK_NS] + (hookShape == null ? 0 : hookShape[BULK_NS]);
    long until = c.cpu.inlineComputeUntil();
    if (until == Long.MIN_VALUE) {
      return;
    }
    long fit = (until - k.now()) / period;
    long n = Math.min(f.iterationsLeft - 1, fit);
    if (n < 2) {
      return; // one iteration is as cheap run by iterate
    }
    KernelPath body = f.path;
    boolean effects = shape[BULK_EFFECTS] > 0;
    if (effects && !f.user && c.preemptsOnEnable(ctx)) {
      return; // an effect's preemption check would push preempt_schedule(): the runner stops there
    }
    byte[] hookPlan = hook == null ? null : hook.fastForwardHook();
    long base = f.iteration;
    // the iterations before the first whose hook is due (at count base + r + 1) or whose body
    // is (at base + r + 2), asked as one question of each test
    long run = n;
    if (hook != null) {
      run = firstDue(c, hook, hookPlan, base + 1, base + n) - (base + 1);
    }
    if (run > 0) {
      run = firstDue(c, body, plan, base + 2, base + run + 1) - (base + 2);
    }
    if (run < 2) {
      return;
    }
    if (effects) {
      for (long j = 1; j <= run; j++) {
        f.iteration = base + j;
        for (int pc = 0; pc < plan.length; pc++) {
          if (plan[pc] == EFFECT) {
            ((FlowOps.Effect) body.op(pc)).action.run(c);
          }
        }
      }
    }
    f.iteration = base + run;
    f.iterationsLeft -= run;
    long segments = run * (shape[BULK_SEGMENTS] + (hookShape == null ? 0 : hookShape[BULK_SEGMENTS]));
    if (!c.cpu.computeInline(run * period, segments)) {
      throw new IllegalStateException("fast-forward: " + run + " iterations of " + body + " did not fit the window");
    }
    // the steps the iterations took, each operation one and each frame's end one
    c.steps += run * (body.size() + 1 + (hook == null ? 0 : hook.size() + 1));
    if (hook != null) {
      c.exitedLoopIterations = 0;
      counted(hook, run * hook.size());
    }
    counted(body, run * body.size());
  }

  /**
   * The first count in {@code from..to} at which a lock break or cond_resched of {@code path}
   * (plan {@code plan}) is due, or {@code to + 1}: inside the window nothing the tests read
   * changes but the count.
   */
  private long firstDue(KernelCpu c, KernelPath path, byte[] plan, long from, long to) {
    long first = to + 1;
    for (int i = 0; i < plan.length && first > from; i++) {
      // each test asked only up to the first count an earlier one fires at
      if (plan[i] == BREAK) {
        first = Math.min(first, ((CondReschedLock.Break) path.op(i)).firstDueAt(c, from, first - 1));
      } else if (plan[i] == COND_RESCHED) {
        first = Math.min(first, ((SchedOps.CondResched) path.op(i)).firstSchedulesAt(k, c, from, first - 1));
      }
    }
    return first;
  }

  /**
   * The next iteration of the loop body on top, {@code f} (at its end, with iterations left):
   * what the interpreter does to start it, the hook between iterations, then the body. True
   * at the body's end, false where something left the straight path.
   */
  private boolean iterate(KernelCpu c, ExecContext ctx, ExecContext.Frame f, byte[] plan) {
    KernelPath hook = f.siteHook;
    long hookIteration = f.iteration;
    f.iterationsLeft--;
    f.iteration++;
    f.pc = 0;
    f.phase = 0;
    if (hook != null) {
      byte[] hookPlan = hook.site() == null ? hook.fastForwardHook() : null;
      if (hookPlan == null) {
        pushHook(ctx, hook, hookIteration, 0);
        return false;
      }
      if (!runHook(c, ctx, hook, hookPlan, hookIteration)) {
        return false;
      }
      interpreter.countStep(c); // the hook's frame ends and is popped
      c.exitedLoopIterations = 0;
    }
    return runBody(c, ctx, f, plan);
  }

  /**
   * The body {@code f}, from its first operation: by runFixed where its computes are all of
   * fixed lengths (with lock breaks, cond_resched and effects), else by runFrame.
   */
  private boolean runBody(KernelCpu c, ExecContext ctx, ExecContext.Frame f, byte[] plan) {
    long[] lengths = f.path.fastForwardLengths();
    return lengths != null ? runFixed(c, ctx, f, plan, lengths) : runFrame(c, ctx, f, plan);
  }

  /**
   * True if the loop body {@code f} is one fixed compute with nothing between its iterations:
   * the interpreter's own batch (FlowOps.Compute) runs those as one segment, cheaper still.
   */
  private static boolean interpreterBatch(ExecContext.Frame f, byte[] plan) {
    return f.siteHook == null && plan.length == 1 && plan[0] == COMPUTE
        && ((FlowOps.Compute) f.path.op(0)).length instanceof Distribution.Fixed;
  }

  /**
   * {@link #runFrame} for a body of fixed computes, lock breaks, cond_resched and effects, from
   * its first operation: the same steps, without the checks that only an effect can change the
   * answer of. Nothing else here raises an interrupt, moves a tracer's interest, pushes a frame
   * or arms an event (so every compute the window allowed at the iteration's start still fits
   * until an effect runs); those are checked after each effect, as runFrame checks them.
   */
  private boolean runFixed(KernelCpu c, ExecContext ctx, ExecContext.Frame f, byte[] plan, long[] lengths) {
    if (c.cpu.hasDeliverableInterrupt()) {
      return false; // taken by the interpreter before the first operation
    }
    KernelPath body = f.path;
    Cpu cpu = c.cpu;
    f.entered = true;
    for (int pc = 0; pc < plan.length; pc++) {
      switch (plan[pc]) {
        case COMPUTE -> {
          interpreter.countStep(c);
          counted(body);
          long ns = lengths[pc];
          if (ns > 0 && !cpu.computeInline(ns)) {
            f.pc = pc;
            interpreter.startCompute(c, f, ns);
            return false;
          }
        }
        case BREAK -> {
          if (((CondReschedLock.Break) body.op(pc)).dueAt(c, f.iteration + 1)) {
            f.pc = pc;
            return false;
          }
          interpreter.countStep(c);
          counted(body);
        }
        case COND_RESCHED -> {
          if (((SchedOps.CondResched) body.op(pc)).schedulesAt(k, c, f.iteration + 1)) {
            f.pc = pc;
            return false;
          }
          interpreter.countStep(c);
          counted(body);
        }
        default -> { // EFFECT
          f.pc = pc;
          interpreter.countStep(c);
          counted(body);
          body.op(pc).exec(k, c, ctx, f);
          if (c.top() != ctx || ctx.top() != f || cpu.segment() != Cpu.Segment.NONE || detailWanted(c)
              || cpu.hasDeliverableInterrupt()) {
            return false; // with f.pc past the effect, as runFrame leaves it
          }
        }
      }
    }
    f.pc = plan.length;
    return true;
  }

  /**
   * A loop entered inside a stretch the runner runs, its body's frame {@code b} just pushed:
   * every iteration and the loop's end, or false where something left the straight path.
   */
  private boolean runLoop(KernelCpu c, ExecContext ctx, ExecContext.Frame b) {
    byte[] plan = b.path.fastForwardBody();
    if (plan == null || b.whileCondition != null) {
      return false;
    }
    if (interpreterBatch(b, plan)) {
      return false;
    }
    if (!runFrame(c, ctx, b, plan)) {
      return false;
    }
    while (true) {
      if (detailWanted(c) || c.cpu.hasDeliverableInterrupt()) {
        return false;
      }
      if (b.iterationsLeft > 0) {
        interpreter.countStep(c);
        if (!iterate(c, ctx, b, plan)) {
          return false;
        }
        continue;
      }
      interpreter.countStep(c); // the loop ends: its body's frame is popped
      c.exitedLoopIterations = b.iteration + 1;
      KernelPath exited = b.path;
      boolean entered = b.entered;
      ctx.pop();
      if (entered && c.tracesPathExit(exited)) {
        // a tracer wants the end of a loop run with interrupts off (the anatomy's count of an
        // interrupts-off stretch's iterations), told as the interpreter tells it, after the pop
        k.tracer.pathExit(k.now(), c.id, exited);
        return !detailWanted(c);
      }
      return true;
    }
  }

  /**
   * The hook's operations with its frame not pushed; where one leaves the straight path the
   * frame is pushed at it and false returned.
   */
  private boolean runHook(KernelCpu c, ExecContext ctx, KernelPath hook, byte[] plan, long hookIteration) {
    for (int j = 0; j < plan.length; j++) {
      if (c.cpu.hasDeliverableInterrupt()) {
        pushHook(ctx, hook, hookIteration, j);
        return false;
      }
      Op op = hook.op(j);
      switch (plan[j]) {
        case COMPUTE -> {
          long ns = ((FlowOps.Compute) op).length.sample(null);
          interpreter.countStep(c);
          counted(hook);
          if (ns > 0 && !c.cpu.computeInline(ns)) {
            ExecContext.Frame h = pushHook(ctx, hook, hookIteration, j);
            h.entered = true;
            interpreter.startCompute(c, h, ns);
            return false;
          }
        }
        case BREAK -> {
          if (((CondReschedLock.Break) op).dueAt(c, hookIteration + 1)) {
            pushHook(ctx, hook, hookIteration, j);
            return false;
          }
          interpreter.countStep(c);
          counted(hook);
        }
        case COND_RESCHED -> {
          if (((SchedOps.CondResched) op).schedulesAt(k, c, hookIteration + 1)) {
            pushHook(ctx, hook, hookIteration, j);
            return false;
          }
          interpreter.countStep(c);
          counted(hook);
        }
        default -> throw new IllegalStateException("hook plan code " + plan[j]);
      }
    }
    return true;
  }

  /** One operation of {@code path} run here. */
  private void counted(KernelPath path) {
    counted(path, 1);
  }

  private void counted(KernelPath path, long n) {
    ops += n;
    if (profile != null) {
      profile.countFastForwarded(path, n);
    }
  }

  private static ExecContext.Frame pushHook(ExecContext ctx, KernelPath hook, long hookIteration, int pc) {
    ExecContext.Frame h = ctx.push(hook, false);
    h.iteration = hookIteration;
    h.pc = pc;
    h.entered = pc > 0; // marked at its first operation, as the interpreter does
    return h;
  }

  /**
   * The operations of the frame on top, {@code f} (a loop body's, from its first, or a called
   * path's); true at its end, false where one left the straight path (the frames as the
   * interpreter has them there).
   */
  private boolean runFrame(KernelCpu c, ExecContext ctx, ExecContext.Frame f, byte[] plan) {
    KernelPath body = f.path;
    Cpu cpu = c.cpu;
    while (f.pc < plan.length) {
      if (cpu.hasDeliverableInterrupt()) {
        return false; // taken by the interpreter before the operation, as always
      }
      f.entered = true; // as the interpreter marks it (no tracer wants the path's entry now)
      Op op = body.op(f.pc);
      switch (plan[f.pc]) {
        case COMPUTE -> {
          interpreter.countStep(c);
          counted(body);
          long ns = ((FlowOps.Compute) op).length.sample(c.random(ctx));
          if (ns <= 0) {
            f.advance();
          } else if (cpu.computeInline(ns)) {
            f.advance();
          } else {
            interpreter.startCompute(c, f, ns);
            return false;
          }
        }
        case BREAK -> {
          if (((CondReschedLock.Break) op).dueAt(c, f.iteration + 1)) {
            return false;
          }
          interpreter.countStep(c);
          counted(body);
          f.advance();
        }
        case COND_RESCHED -> {
          if (((SchedOps.CondResched) op).schedulesAt(k, c, f.iteration + 1)) {
            return false;
          }
          interpreter.countStep(c);
          counted(body);
          f.advance();
        }
        case ACQUIRE, RELEASE, EFFECT, STEP -> {
          if (plan[f.pc] == ACQUIRE && !((LockOps.Acquire) op).takesAtOnce()) {
            return false; // it spins or nests: left to the interpreter
          }
          // The kernel's own code, step by step as the interpreter runs an operation of several
          // phases (an unlock, then the interrupt flag); after each, what it may have changed.
          int pc = f.pc;
          while (true) {
            interpreter.countStep(c);
            counted(body);
            op.exec(k, c, ctx, f);
            if (c.top() != ctx || ctx.top() != f || cpu.segment() != Cpu.Segment.NONE || detailWanted(c)) {
              return false;
            }
            if (f.pc != pc) {
              break;
            }
            if (cpu.hasDeliverableInterrupt()) {
              return false;
            }
          }
        }
        case CALL -> {
          interpreter.countStep(c);
          counted(body);
          int depth = ctx.depth;
          op.exec(k, c, ctx, f); // the guard, if any, runs here as it would in the interpreter
          if (c.top() != ctx || cpu.segment() != Cpu.Segment.NONE || detailWanted(c)) {
            return false;
          }
          if (ctx.depth == depth + 1) {
            ExecContext.Frame g = ctx.top();
            byte[] called = g.path.fastForwardCall();
            if (called == null || !runFrame(c, ctx, g, called)) {
              return false;
            }
            if (cpu.hasDeliverableInterrupt()) {
              return false; // the interpreter takes it, then ends the called frame
            }
            interpreter.countStep(c); // the called path ends: its frame is popped
            c.exitedLoopIterations = 0;
            ctx.pop();
          } else if (ctx.depth != depth) {
            return false;
          }
        }
        case FAULT -> {
          interpreter.countStep(c);
          counted(body);
          int depth = ctx.depth;
          op.exec(k, c, ctx, f); // the exception's frames: ret_from_exception, the handler (and might_sleep's)
          if (c.top() != ctx || cpu.segment() != Cpu.Segment.NONE || detailWanted(c)) {
            return false;
          }
          while (ctx.depth > depth) {
            ExecContext.Frame g = ctx.top();
            byte[] called = g.path.fastForwardCall();
            if (called == null || !runFrame(c, ctx, g, called)) {
              return false;
            }
            if (cpu.hasDeliverableInterrupt()) {
              return false; // the interpreter takes it, then ends the frame
            }
            interpreter.countStep(c); // the frame ends and is popped
            c.exitedLoopIterations = 0;
            ctx.pop();
          }
        }
        case LOOP -> {
          interpreter.countStep(c);
          counted(body);
          int depth = ctx.depth;
          op.exec(k, c, ctx, f); // the count is drawn or worked out here, as in the interpreter
          if (c.top() != ctx || cpu.segment() != Cpu.Segment.NONE || detailWanted(c)) {
            return false;
          }
          if (ctx.depth == depth + 1) {
            if (!runLoop(c, ctx, ctx.top())) {
              return false;
            }
          } else if (ctx.depth != depth) {
            return false;
          }
        }
        default -> throw new IllegalStateException("body plan code " + plan[f.pc]);
      }
    }
    return true;
  }
}
