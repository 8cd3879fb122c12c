package dev.kernellab.kernel;

import dev.kernellab.hw.Cpu;
import dev.kernellab.hw.CpuListener;
import dev.kernellab.kernel.spi.Tracer;

/**
 * The interpreter of {@link KernelPath}s: each CPU runs the operations of its top execution
 * context until one starts a work segment on the hardware CPU (compute, spin, halt), and picks
 * up again when the machine reports that the segment ended or that an interrupt was accepted.
 *
 * <pre>
 *     cpu0:  [ task: user prog | sys_read | loop body ]  [ hardirq: irq path | rtc handler ]
 *                                                         ^ top: runs next
 * </pre>
 *
 * <p>Before every operation the loop takes a deliverable interrupt, so an interrupt that
 * became deliverable through sti is taken at exactly that instant. Cross-CPU effects (a lock
 * released while another CPU spins) go through a zero-delay kick event of the target CPU, so
 * no CPU's loop runs inside another's.
 */
final class Interpreter implements CpuListener {

  /**
   * Steps of one CPU's interpreter at one simulated instant after which it is stuck: a path
   * that loops without taking time (an empty or zero-cost body with a huge count) would
   * otherwise never give the event loop back. Named after 2.6's kernel/softlockup.c ("BUG: soft
   * lockup detected on CPU#%d!"); 2^24 steps is far above any real burst at one instant (a
   * 256-iteration zero-cost loop is 2^9 steps), and a second or so of wall time.
   */
  static final long SOFT_LOCKUP_STEPS = 1L << 24;

  /**
   * How often the soft-lockup guard looks at the clock, in steps (a power of two): a stuck CPU
   * is caught within twice this many steps after SOFT_LOCKUP_STEPS at one instant, never
   * before, and a step costs an increment and a mask test instead of a read of the clock.
   */
  static final long LOCKUP_CHECK_STEPS = 1L << 12;

  private final Kernel k;
  private final dev.kernellab.hw.sim.Simulation sim; // the kernel's: the clock, read at every step
  private final KernelCpu[] cpus;
  private final Tracer tracer;
  private long opsExecuted;
  private OperationProfile.Counter profile; // null unless Kernel.profileOperations()
  final FastForward fastForward;

  Interpreter(Kernel k, KernelCpu[] cpus, Tracer tracer) {
    this.k = k;
    this.sim = k.machine().simulation();
    this.cpus = cpus;
    this.tracer = tracer;
    this.fastForward = new FastForward(k, this);
  }

  long opsExecuted() {
    return opsExecuted;
  }

  void profileOperations() {
    if (profile == null) {
      profile = new OperationProfile.Counter();
      fastForward.profile = profile;
    }
  }

  OperationProfile operationProfile() {
    return profile == null ? new OperationProfile(java.util.List.of(), java.util.List.of(), java.util.List.of()) : profile.snapshot();
  }

  @Override
  public void interruptAccepted(Cpu cpu, int vector, long suspendedComputeNs) {
    KernelCpu c = cpus[cpu.id()];
    ExecContext top = c.top();
    if (!top.isEmpty()) {
      ExecContext.Frame f = top.top();
      if (f.computing) {
        f.computeLeftNs = suspendedComputeNs;
      }
    }
    k.interrupts.enterInterrupt(c, vector);
    dispatch(c);
  }

  /**
   * An SMI on {@code c}: what the CPU runs stops where it is, with the compute it had left, and
   * the SMM stretch {@code smm} runs above it ({@link SystemManagement}).
   */
  void systemManagement(KernelCpu c, KernelPath smm) {
    if (c.dispatching) {
      return; // not reachable from the event loop; an SMI never lands inside a kernel step
    }
    ExecContext top = c.top();
    long left = c.cpu.stopSegment();
    if (!top.isEmpty()) {
      ExecContext.Frame f = top.top();
      if (f.computing) {
        f.computeLeftNs = left;
      }
    }
    k.interrupts.enterSystemManagement(c, smm);
    dispatch(c);
  }

  @Override
  public void segmentFinished(Cpu cpu) {
    KernelCpu c = cpus[cpu.id()];
    computeEnded(c);
    dispatch(c);
  }

  private static void computeEnded(KernelCpu c) {
    ExecContext.Frame f = c.top().top();
    f.computing = false;
    if (f.advanceAfterCompute) {
      f.advance();
    }
  }

  /**
   * A compute segment just started that ends before anything else can happen ends here, and
   * this loop goes on, instead of returning to the machine's segment-end loop to be called
   * back: the same clock, events and order, without the round trip.
   */
  private static boolean endedInline(KernelCpu c) {
    if (!c.cpu.finishInlineCompute()) {
      return false;
    }
    computeEnded(c);
    return true;
  }

  /**
   * What a compute operation does at {@code f}, on top of {@code c}'s running context, when its
   * segment cannot be run by {@link FastForward}: starts it, and ends it here if it ends inline,
   * as the loop does after the operation.
   */
  void startCompute(KernelCpu c, ExecContext.Frame f, long ns) {
    c.compute(f, ns, true);
    if (c.cpu.segment() == Cpu.Segment.COMPUTE) {
      endedInline(c);
    }
  }

  /**
   * One step of {@code c}'s interpreter: the soft-lockup guard counts the steps, and every
   * LOCKUP_CHECK_STEPS of them looks whether simulated time has moved since it last saw it.
   */
  void countStep(KernelCpu c) {
    if ((++c.steps & (LOCKUP_CHECK_STEPS - 1)) != 0) {
      return;
    }
    long now = sim.now();
    if (now != c.lockupNs) {
      c.lockupNs = now;
      c.lockupSteps = c.steps;
    } else if (c.steps - c.lockupSteps > SOFT_LOCKUP_STEPS && k.debug.softLockup()) {
      throw k.bug(c, "soft lockup", "cpu" + c.id + " ran " + SOFT_LOCKUP_STEPS
          + " interpreter steps without simulated time advancing");
    }
  }

  /** A kick event of {@code c}: a spinner retries, an idle CPU looks at its queue again. */
  void kicked(KernelCpu c) {
    if (c.cpu.segment() == Cpu.Segment.SPIN) {
      c.cpu.stopSegment();
    }
    if (c.cpu.segment() == Cpu.Segment.NONE) {
      dispatch(c);
    }
  }

  private void dispatch(KernelCpu c) {
    if (c.dispatching) {
      return;
    }
    c.dispatching = true;
    int savedCpu = k.sched.enterCpu(c.id);
    try {
      while (c.cpu.segment() == Cpu.Segment.NONE) {
        countStep(c);
        if (c.cpu.hasDeliverableInterrupt()) {
          k.interrupts.enterInterrupt(c, c.cpu.acceptInterrupt());
          continue;
        }
        ExecContext ctx = c.top();
        if (ctx.isEmpty()) {
          contextFinished(c, ctx);
          continue;
        }
        ExecContext.Frame f = ctx.top();
        if (f.computing) {
          c.cpu.startCompute(f.computeLeftNs);
          if (!endedInline(c)) {
            break;
          }
          continue;
        }
        if (f.pc >= f.path.size()) {
          frameFinished(c, ctx, f);
          continue;
        }
        if (!f.entered) {
          // Traced when the path starts running, not when its frame is pushed: a system call
          // pushes its body under the entry code, which runs first. Marked whether or not a
          // tracer wants it now, so that the exits a tracer sees do not depend on when it asked.
          f.entered = true;
          if (c.pathTracers != 0) {
            tracer.pathEnter(k.now(), c.id, f.path);
          }
        }
        opsExecuted++;
        Op op = f.path.op(f.pc);
        if (profile != null) {
          profile.count(op, f.path);
        }
        op.exec(k, c, ctx, f);
        if (c.cpu.segment() == Cpu.Segment.COMPUTE) {
          endedInline(c);
        } else if (op instanceof FlowOps.Loop && ctx.top() != f) {
          // the body just pushed: its first iteration goes to the runner too, so that a loop of
          // a page or two reaches it (a loop's entry starts no segment: nothing ends inline here)
          fastForward.enter(c, ctx, ctx.top());
        }
      }
    } catch (KernelBug e) {
      throw e;
    } catch (RuntimeException e) {
      throw k.internalError(c, e);
    } finally {
      c.dispatching = false;
      k.sched.enterCpu(savedCpu);
    }
  }

  private void frameFinished(KernelCpu c, ExecContext ctx, ExecContext.Frame f) {
    if (f.iterationsLeft > 0 && f.whileCondition == null && f.path.fastForwardBody() != null
        && fastForward.run(c, ctx, f)) {
      return;
    }
    if (f.iterationsLeft > 0 && f.path.site() != null
        && (f.whileCondition == null || f.whileCondition.test(c))) {
      f.iterationsLeft--;
      f.iteration++;
      f.pc = 0;
      f.phase = 0;
      if (f.siteHook != null) {
        long iteration = f.iteration - 1;
        ExecContext.Frame h = ctx.push(f.siteHook, false);
        h.iteration = iteration;
      }
      return;
    }
    KernelPath exited = f.path;
    boolean entered = f.entered;
    c.exitedLoopIterations = exited.site() != null ? f.iteration + 1 : 0;
    ctx.pop();
    if (ctx.isEmpty() && ctx.kind == ExecContext.Kind.SOFTIRQ) {
      // do_softirq's path was the context's whole work, and it ends with interrupts off: the
      // context goes now, so that the path's exit shows tracers the code it returns to
      contextFinished(c, ctx);
    }
    if (entered && c.tracesPathExit(exited)) {
      tracer.pathExit(k.now(), c.id, exited); // after the pop: the caller runs from here on
    }
  }

  private void contextFinished(KernelCpu c, ExecContext ctx) {
    switch (ctx.kind) {
      case SOFTIRQ -> {
        if (ctx.irqFlagsDepth != 1) {
          throw k.bug(c, "softirq context unbalanced",
              "do_softirq ended with " + ctx.irqFlagsDepth + " saved irq flags instead of 1");
        }
        c.contextDepth--;
        c.cpu.restoreInterruptFlag(ctx.popIrqFlag());
        if (ctx.processContext && c.contextDepth == 0) {
          // do_softirq's __local_bh_enable() ends in preempt_enable() with the preempt patch:
          // in a task that holds nothing (ksoftirqd) the count is zero here.
          c.preemptCheck(c.current.context);
        }
      }
      case HARDIRQ -> throw k.bug(c, "hardirq context ended without iret",
          "vector 0x" + Integer.toHexString(ctx.vector));
      case TASK -> ctx.push(k.programs.exitPath, false);
    }
  }
}
