package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.LatencyCause;
import java.util.Arrays;

/**
 * One execution context on a CPU: a task's kernel/user stack, a hardirq handler, or a softirq
 * run. Holds the stack of frames the interpreter executes.
 *
 * <p>Models what the kernel keeps on a task's kernel stack (or the interrupt stack): which
 * function is running, where in it, the loop counters, and how much of an interrupted
 * instruction stream is left.
 */
final class ExecContext {

  /*
   * Implementation overview
   *
   * frames[0..depth-1] is a stack; frames[depth-1] runs. Frame objects are pooled: created at
   * the first push that reaches their depth, kept on pop for the next push, so the interpreter
   * allocates nothing in steady state and a sleeping task costs only the frames it used.
   *
   *     frames:  [ user program ] [ sys_read (kernel) ] [ loop body @ site ] ...
   *                                                      ^ top: path, pc, phase, loop counters,
   *                                                        suspended compute / spin state
   *
   * irqFlags[] is the stack of saved interrupt flags of local_irq_save/spin_lock_irqsave,
   * restored in LIFO order as the kernel's flags variables are.
   */

  enum Kind {
    TASK,
    HARDIRQ,
    SOFTIRQ
  }

  final Task task; // owning task (for irq contexts: null)
  Kind kind;
  private Frame[] frames = new Frame[4]; // created on first use, then reused for ever
  int depth;
  private boolean[] irqFlags = new boolean[4];
  int irqFlagsDepth;
  int vector; // HARDIRQ: the vector being handled
  int heldAtHandler; // HARDIRQ: locks the CPU held when the handler was called
  int preemptAtHandler; // HARDIRQ: the preempt count the handler was called with
  boolean processContext; // SOFTIRQ: do_softirq() called by a task with nothing held (ksoftirqd)

  ExecContext(Task task, Kind kind) {
    this.task = task;
    this.kind = kind;
  }

  Frame top() {
    return frames[depth - 1];
  }

  boolean isEmpty() {
    return depth == 0;
  }

  Frame frame(int i) {
    return frames[i];
  }

  Frame push(KernelPath path, boolean user) {
    if (depth == frames.length) {
      frames = Arrays.copyOf(frames, frames.length * 2);
    }
    Frame f = frames[depth];
    if (f == null) {
      f = new Frame();
      frames[depth] = f;
    }
    LatencyCause inherited = depth > 0 ? frames[depth - 1].declared : null;
    depth++;
    f.reset(path, user);
    f.declared = path.declaredCause() != null ? path.declaredCause() : inherited;
    return f;
  }

  void pop() {
    frames[--depth].clear();
  }

  void clear() {
    while (depth > 0) {
      pop();
    }
    irqFlagsDepth = 0;
    processContext = false;
  }

  /** True if the running frame executes user-mode code. */
  boolean inUserMode() {
    if (depth == 0) {
      return false;
    }
    Frame top = frames[depth - 1];
    if (top.user) {
      return true;
    }
    // A kernel frame whose last operation has run, with no iteration to come, is already
    // returned from; the interpreter pops it at its next step, after taking an interrupt that
    // became deliverable. On a return to user mode that last operation was iret, which sets
    // the privilege level and the interrupt flag together: an interrupt taken there interrupted
    // user mode, and ret_from_intr must look at need_resched as for user mode.
    return depth > 1 && top.pc >= top.path.size() && top.path.site() == null && frames[depth - 2].user;
  }

  void saveIrqFlag(boolean enabled) {
    if (irqFlagsDepth == irqFlags.length) {
      irqFlags = Arrays.copyOf(irqFlags, irqFlags.length * 2);
    }
    irqFlags[irqFlagsDepth++] = enabled;
  }

  /** Pops the innermost saved flag; the caller checks {@code irqFlagsDepth > 0} first. */
  boolean popIrqFlag() {
    return irqFlags[--irqFlagsDepth];
  }

  /** The innermost frame running a path (for bug reports and traces). */
  KernelPath currentPath() {
    return depth == 0 ? null : frames[depth - 1].path;
  }

  /** One activation: a path being executed, or a loop body being iterated. */
  static final class Frame {
    KernelPath path;
    int pc;
    int phase; // step within a multi-step operation
    boolean user;
    long iterationsLeft; // loop bodies: iterations still to start after this one
    long iteration; // loop bodies: index of the running iteration, from 0
    boolean computing; // a compute segment of ops[pc] is suspended or running
    boolean advanceAfterCompute; // while computing: the segment ends the operation (else: next phase)
    long computeLeftNs; // while computing
    long scratch; // per-operation scratch (e.g. the time a spin started)
    boolean spinning; // the lock operation at pc is spinning
    KernelPath siteHook; // loop bodies: what patches run between iterations, or null
    boolean entered; // the path's first operation has started (for the pathEnter trace)
    Guard whileCondition; // loop bodies of a while loop: tested before each further iteration
    // the cause the innermost path of this frame and its callers here declared, or null: set at
    // the push, so that KernelCpu.declaredCause is one read at each event a tracer follows
    LatencyCause declared;

    void reset(KernelPath p, boolean u) {
      path = p;
      pc = 0;
      phase = 0;
      user = u;
      iterationsLeft = 0;
      iteration = 0;
      computing = false; // advanceAfterCompute and computeLeftNs mean nothing until set with it
      scratch = 0;
      spinning = false;
      siteHook = null;
      entered = false;
      whileCondition = null;
    }

    void clear() {
      path = null;
      siteHook = null;
      whileCondition = null;
      declared = null;
    }

    /** Moves to the next operation. */
    void advance() {
      pc++;
      phase = 0;
      computing = false;
      spinning = false;
    }
  }
}
