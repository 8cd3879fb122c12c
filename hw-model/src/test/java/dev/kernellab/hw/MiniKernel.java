package dev.kernellab.hw;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * A test stand-in for a kernel: runs one long compute segment per CPU and, for each accepted
 * interrupt, a handler of fixed length (optionally with interrupts re-enabled, as 2.4 does for
 * handlers without SA_INTERRUPT), then EOI, iret and resumption of what was interrupted.
 */
final class MiniKernel implements CpuListener {

  record Delivery(long timeNs, int cpu, int vector, long suspendedComputeNs) {}

  private final Machine machine;
  private final long handlerNs;
  private final IntPredicate reenableIrqsFor;
  private final List<Deque<Long>> suspended = new ArrayList<>();
  final List<Delivery> deliveries = new ArrayList<>();
  final List<Long> finishedAt = new ArrayList<>();
  Runnable onHandler = () -> { };

  MiniKernel(Machine machine, long handlerNs, IntPredicate reenableIrqsFor) {
    this.machine = machine;
    this.handlerNs = handlerNs;
    this.reenableIrqsFor = reenableIrqsFor;
    for (int i = 0; i < machine.cpuCount(); i++) {
      suspended.add(new ArrayDeque<>());
    }
    machine.attach(this);
  }

  MiniKernel(Machine machine, long handlerNs) {
    this(machine, handlerNs, v -> false);
  }

  @Override
  public void interruptAccepted(Cpu cpu, int vector, long suspendedComputeNs) {
    deliveries.add(new Delivery(machine.simulation().now(), cpu.id(), vector, suspendedComputeNs));
    suspended.get(cpu.id()).push(suspendedComputeNs);
    onHandler.run();
    if (vector == Vectors.FIRST_DEVICE_VECTOR + 8 * Rtc.IRQ) {
      machine.rtc().readRegisterC();
    }
    if (reenableIrqsFor.test(vector)) {
      cpu.sti();
    }
    cpu.startCompute(handlerNs);
  }

  @Override
  public void segmentFinished(Cpu cpu) {
    Deque<Long> stack = suspended.get(cpu.id());
    if (stack.isEmpty()) {
      finishedAt.add(machine.simulation().now());
      cpu.halt();
      return;
    }
    cpu.eoi();
    long left = stack.pop();
    cpu.sti(); // iret restores IF=1: interrupts were enabled when this one was accepted
    if (cpu.hasDeliverableInterrupt()) {
      stack.push(left);
      int v = cpu.acceptInterrupt();
      interruptAccepted(cpu, v, stack.pop());
      return;
    }
    cpu.startCompute(left);
  }
}
