package dev.kernellab.kernel;

import dev.kernellab.hw.Cpu;
import dev.kernellab.kernel.spi.Site;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One iteration of a user-mode loop body whose page faults take no decision, flattened: the
 * operations the interpreter would run for it, through the calls and the fault's frames, as a
 * list of primitives that {@link FastForward} can run back to back without a frame, a dispatch or
 * a check between them.
 *
 * <p>Not a kernel function: an engine shortcut of the interpreter, as {@link FastForward} is.
 */
final class IterationScript {

  /*
   * Implementation overview
   *
   * Which bodies. A user loop body (a program's page-touch loop) whose operations are computes of
   * a fixed length, bookkeeping effects (KernelPath.Builder.bookkeeping), plain spin_lock and
   * spin_unlock (no nesting), calls of functions of the same, loops whose count is drawn and
   * comes out 0 (__alloc_pages' wake-up of kswapd: at most one such draw, the iteration's only
   * one), and one page fault whose handler is of the same, returning to user mode through
   * ret_from_exception, with no call after it. No path here declares a cause, so the cause the
   * CPU's frames declare is the body frame's throughout, as the anatomy reads it.
   *
   * Why a run of its iterations is exact. Inside the inline window only this CPU acts. An
   * iteration starts and ends in the same state: the body's frame at its end, the interrupt
   * flag on (user mode), no lock held, the preempt count the same, need_resched clear. Every
   * decision its operations take is then the one the last iteration took: a free lock is taken
   * at once (nobody else runs, and the runner checks it is free and nobody spins), the unlock
   * and the effects find the preempt count that did not preempt before (the runner checks
   * preemptsOnEnable once), ret_from_exception finds need_resched clear, and no interrupt
   * becomes deliverable (no event fires; a bookkeeping effect raises nothing). A tracer's
   * interest moves only in its own callbacks, and the only ones an iteration makes are the
   * return's cli and iret: the runner looks after each, and where a tracer asked for detail it
   * stops there, with the frames in place. What differs from one iteration to the next is the
   * clock, the draw, the lock's statistics, the effects' counts and what tracers are told; the
   * runner does each of those at its instant, as the interpreter does: a compute moves the
   * clock and counts its event (Cpu.computeInline), a lock is taken and released with its
   * statistics and the preempt count moved (SpinLocks.takeFree, SpinLocks.release,
   * KernelCpu.addPreemptCount), and ret_from_exception runs its cli and iret on its own frame
   * above the body's, the fault's flag saved, so that a tracer told of them reads the CPU as it
   * would op by op (KernelCpu.irqDisable, irqRestoreSaved). What it leaves out is what the
   * iteration leaves as it found it: the handler's and the called paths' frames, the
   * operations' phases, the checks that pass again. Its operations and steps are counted as
   * the runner counts them, in one sum: the soft-lockup guard's look at the clock every 4,096
   * steps may then fall elsewhere, which moves when a stuck CPU would be reported by at most
   * that many steps, and nothing else.
   *
   * The draw. The iteration's only draw from the task's stream is the drawn loop's count, and
   * no effect comes before it (a bookkeeping effect draws nothing; the flattening refuses one
   * before the loop all the same), so it can be drawn at the iteration's start: the stream is at
   * the same point. A count other than 0 ends the run before that iteration, and the loop
   * operation takes that count when it runs in this context instead of drawing again
   * (KernelCpu.forceLoopCount): the same draw, made once. The loop comes before the fault's
   * return, so a stop there has made the iteration's draw where op by op would have too.
   */

  static final byte COMPUTE = 1;
  static final byte LOCK = 2;
  static final byte UNLOCK = 3;
  static final byte EFFECT = 4;
  static final byte EXCEPTION_RETURN = 5;

  final byte[] code;
  final long[] ns; // COMPUTE: its length
  final Object[] what; // LOCK, UNLOCK: the SpinLock; EFFECT: the FlowOps.Effect
  final KernelPath[] in; // LOCK: the path that takes it (its statistics name it)
  // EXCEPTION_RETURN: the body's pc after its fault, and the steps and operations of the
  // iteration up to and including the return's decision (its phase 0)
  final int[] bodyPc;
  final long[] stepsAt;
  final long[] operationsAt;
  final SpinLock[] locks; // every lock taken, to check each is free
  final FlowOps.Loop draw; // the loop whose count is drawn, or null
  final boolean popsFrames; // a fault or a call: an iteration ends with a frame popped
  final long iterationNs; // the iteration's compute time
  final long segments; // its computes longer than 0
  final long steps; // the interpreter's steps it takes, its body's end not included
  final long operations; // the operations the runner counts for it
  // of those, by path, for the operation profile: the body's own, ret_from_exception's, and
  // each called path's (calledOps[i] of called[i])
  final long bodyOps;
  final long returnOps;
  final KernelPath[] called;
  final long[] calledOps;

  private IterationScript(Flattening f) {
    int n = f.code.size();
    code = new byte[n];
    ns = new long[n];
    what = new Object[n];
    in = new KernelPath[n];
    bodyPc = new int[n];
    stepsAt = new long[n];
    operationsAt = new long[n];
    for (int i = 0; i < n; i++) {
      code[i] = f.code.get(i);
      ns[i] = f.ns.get(i);
      what[i] = f.what.get(i);
      in[i] = f.in.get(i);
      bodyPc[i] = f.bodyPc.get(i);
      stepsAt[i] = f.stepsAt.get(i);
      operationsAt[i] = f.operationsAt.get(i);
    }
    locks = f.locks.toArray(new SpinLock[0]);
    draw = f.draw;
    popsFrames = f.faults > 0 || f.calls > 0;
    long t = 0;
    long s = 0;
    for (long l : ns) {
      t += l;
      s += l > 0 ? 1 : 0;
    }
    iterationNs = t;
    segments = s;
    steps = f.steps;
    operations = f.operations;
    bodyOps = f.bodyOps;
    returnOps = f.returnOps;
    called = f.called.toArray(new KernelPath[0]);
    calledOps = new long[called.length];
    for (int i = 0; i < called.length; i++) {
      calledOps[i] = f.calledOps.get(i);
    }
  }

  /**
   * At the end of the body {@code f}, its step counted: the whole iterations that follow and fit
   * the window, run from this script (the overview's "Why a run of its iterations is exact"),
   * leaving at least one iteration to the runner's operation-by-operation iterate. Stops before
   * an iteration whose draw is not 0, leaving that count for the loop to take. True at a body's
   * end; false where a tracer asked for detail inside ret_from_exception, with the frames as the
   * runner leaves them there. What it ran is told to {@code ff}.
   */
  boolean run(FastForward ff, Kernel k, KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
    if (f.iterationsLeft < 2 || f.siteHook != null || !f.user || k.mightSleepHook != null
        || FastForward.detailWanted(c) || c.heldCount != 0) {
      return true;
    }
    Cpu cpu = c.cpu;
    long until = cpu.inlineComputeUntil();
    if (until == Long.MIN_VALUE) {
      return true;
    }
    long n = Math.min(f.iterationsLeft - 1, (until - k.now()) / iterationNs);
    if (n < 1 || c.current.needResched() || c.preemptsOnEnable(ctx)) {
      return true;
    }
    for (SpinLock lock : locks) {
      if (k.sleeps(lock) || lock.kernel != k || lock.writerCpu >= 0 || lock.readers != 0 || lock.nested != 0
          || lock.spinnerCount != 0 || lock.sleeper.owner != null || lock.sleeper.waiterCount != 0) {
        return true;
      }
    }
    KernelPath ret = k.programs.retFromExceptionToUser;
    if (ret.size() != 1 || !(ret.op(0) instanceof TaskOps.ExceptionReturn er) || !er.toUser) {
      return true;
    }
    int end = f.pc; // the body's end, where each iteration ends
    SplittableRandom random = c.random(ctx);
    long done = 0;
    while (done < n) {
      if (draw != null) {
        long count = draw.count.sample(random);
        if (count != 0) {
          c.forceLoopCount(draw, ctx, count); // the loop takes it when the next iteration runs it
          ff.drawLeft();
          break;
        }
      }
      f.iteration++;
      f.iterationsLeft--;
      for (int i = 0; i < code.length; i++) {
        switch (code[i]) {
          case COMPUTE -> {
            if (ns[i] > 0 && !cpu.computeInline(ns[i])) {
              throw new IllegalStateException("fast-forward: an iteration of " + f.path + " did not fit the window");
            }
          }
          case LOCK -> {
            SpinLock lock = (SpinLock) what[i];
            c.addPreemptCount(PreemptCount.PREEMPT_OFFSET, ctx);
            k.locks.takeFree(c, lock, in[i]);
            lock.heldForm = LockOps.Form.PLAIN;
          }
          case UNLOCK -> {
            k.locks.release(c, ctx, (SpinLock) what[i], false);
            c.addPreemptCount(-PreemptCount.PREEMPT_OFFSET, ctx);
          }
          case EFFECT -> ((FlowOps.Effect) what[i]).action.run(c);
          default -> {
            // EXCEPTION_RETURN, on its own frame above the body's as the interpreter has them
            // (a tracer told of its cli and iret reads the CPU's running path, user mode and
            // declared cause): cli, need_resched clear, then iret with the flag the fault saved
            f.pc = bodyPc[i];
            ctx.saveIrqFlag(true);
            ExecContext.Frame g = ctx.push(ret, false);
            g.entered = true;
            c.irqDisable(ctx);
            g.phase = 1;
            if (FastForward.detailWanted(c)) {
              stoppedInReturn(ff, c, f, ret, i, done, 0);
              return false;
            }
            c.irqRestoreSaved(ctx);
            c.irqEnable(ctx);
            g.advance();
            if (FastForward.detailWanted(c)) {
              stoppedInReturn(ff, c, f, ret, i, done, 1);
              return false;
            }
            ctx.pop();
            f.pc = end;
          }
        }
      }
      done++;
    }
    if (done > 0) {
      if (popsFrames) {
        c.exitedLoopIterations = 0; // what the last frame popped leaves there, as it does op by op
      }
      // each iteration's steps and its body's end (the step the runner's caller counts for it)
      c.steps += done * (steps + 1);
      ff.scripted(this, f.path, ret, done, 0);
    }
    return true;
  }

  /**
   * A tracer told of ret_from_exception's cli ({@code phase} 0) or iret (1), primitive {@code i}
   * of the iteration after {@code done} whole ones, asked for detail: the frames are already as
   * the runner leaves them after that operation (the body's after its fault,
   * ret_from_exception's above it); the steps and operations so far are counted.
   */
  private void stoppedInReturn(FastForward ff, KernelCpu c, ExecContext.Frame f, KernelPath ret, int i, long done,
      int phase) {
    ff.scriptStopped(phase);
    c.exitedLoopIterations = 0;
    c.steps += done * (steps + 1) + stepsAt[i] + phase;
    ff.scripted(this, f.path, ret, done, operationsAt[i] + phase);
    if (ff.profile != null) {
      // this iteration's: the body's up to its fault, every called path (all come before the
      // return), the return's so far
      ff.profile.countFastForwarded(f.path, bodyPc[i]);
      ff.profile.countFastForwarded(ret, phase + 1);
      for (int j = 0; j < called.length; j++) {
        ff.profile.countFastForwarded(called[j], calledOps[j]);
      }
    }
  }

  /** The script of a loop body of {@code ops}, or null if it has none (see the overview). */
  static IterationScript of(Op[] ops, Site site, boolean user) {
    if (site == null || !user) {
      return null;
    }
    Flattening f = new Flattening();
    if (!f.add(ops, null, true) || f.depth != 0) {
      return null;
    }
    IterationScript s = new IterationScript(f);
    return s.iterationNs > 0 && (s.locks.length > 0 || s.draw != null || f.faults > 0) ? s : null;
  }

  /** The walk that builds a script, refusing what it cannot take. */
  private static final class Flattening {
    final List<Byte> code = new ArrayList<>();
    final List<Long> ns = new ArrayList<>();
    final List<Object> what = new ArrayList<>();
    final List<KernelPath> in = new ArrayList<>();
    final List<Integer> bodyPc = new ArrayList<>();
    final List<Long> stepsAt = new ArrayList<>();
    final List<Long> operationsAt = new ArrayList<>();
    final List<SpinLock> locks = new ArrayList<>();
    FlowOps.Loop draw;
    SpinLock held;
    int depth; // locks held: 0 or 1
    int faults;
    int calls;
    int effects;
    long steps;
    long operations;
    long bodyOps;
    long returnOps;
    final List<KernelPath> called = new ArrayList<>();
    final List<Long> calledOps = new ArrayList<>();

    private void counted(KernelPath path) {
      operations++;
      if (path == null) {
        bodyOps++;
        return;
      }
      int i = called.indexOf(path);
      if (i < 0) {
        called.add(path);
        calledOps.add(1L);
      } else {
        calledOps.set(i, calledOps.get(i) + 1);
      }
    }

    private void put(byte c, long length, Object w, KernelPath p) {
      put(c, length, w, p, -1);
    }

    private void put(byte c, long length, Object w, KernelPath p, int pc) {
      code.add(c);
      ns.add(length);
      what.add(w);
      in.add(p);
      bodyPc.add(pc);
      stepsAt.add(steps);
      operationsAt.add(operations);
    }

    /**
     * The operations of {@code path} ({@code ops}; null for the body itself), run in a user
     * frame if {@code user}; false if one is refused.
     */
    boolean add(Op[] ops, KernelPath path, boolean user) {
      for (int pc = 0; pc < ops.length; pc++) {
        Op op = ops[pc];
        steps++;
        counted(path);
        if (op instanceof FlowOps.Compute c) {
          if (!(c.length instanceof Distribution.Fixed fixed)) {
            return false;
          }
          put(COMPUTE, fixed.value(), null, null);
        } else if (op instanceof FlowOps.Effect e) {
          if (!e.bookkeeping) {
            return false;
          }
          effects++;
          put(EFFECT, 0, e, null);
        } else if (op instanceof LockOps.Acquire a) {
          if (a.form != LockOps.Form.PLAIN || a.read || a.lock.isReaderWriter() || depth != 0 || path == null) {
            return false;
          }
          depth = 1;
          held = a.lock;
          if (!locks.contains(a.lock)) {
            locks.add(a.lock);
          }
          put(LOCK, 0, a.lock, path);
        } else if (op instanceof LockOps.Release r) {
          if (r.form != LockOps.Form.PLAIN || r.read || depth != 1 || r.lock != held) {
            return false;
          }
          depth = 0;
          held = null;
          put(UNLOCK, 0, r.lock, null);
        } else if (op instanceof FlowOps.Call call) {
          if (!callable(call.target) || path == null && faults > 0) {
            return false;
          }
          calls++;
          if (!add(call.target.ops(), call.target, false)) {
            return false;
          }
          steps++; // its frame ends
        } else if (op instanceof FlowOps.Loop loop) {
          // drawn at the iteration's start, so no effect may come before it (a bookkeeping
          // action draws nothing, but the draw must be the iteration's first use of the stream
          // all the same) and it comes before the fault's return, where a tracer may stop the
          // script with the iteration's draw made
          if (loop.count == null || loop.whileCondition != null || draw != null || effects > 0
              || path == null && faults > 0) {
            return false;
          }
          draw = loop; // its count must come out 0
        } else if (op instanceof TaskOps.Fault fault) {
          // one fault, with every call before its return: a stop inside the return (the
          // runner's stopInReturn) has then run every called path whole
          if (!user || path != null || faults > 0 || !callable(fault.handler)) {
            return false;
          }
          faults++;
          if (!add(fault.handler.ops(), fault.handler, false) || depth != 0) {
            return false;
          }
          steps++; // the handler's frame ends
          steps++; // ret_from_exception's decision
          operations++;
          returnOps++;
          put(EXCEPTION_RETURN, 0, null, null, pc + 1);
          steps += 2; // iret, then its frame ends
          operations++;
          returnOps++;
        } else {
          return false;
        }
      }
      return true;
    }

    private static boolean callable(KernelPath p) {
      return p.site() == null && p.declaredCause() == null && !p.isUser();
    }
  }
}
