package dev.kernellab.benchmarks;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.DebugChecks;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.kernel.spi.Site;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Interpreter throughput: one kernel thread on one CPU runs a tight loop of the kernel's
 * primitives for ever; each invocation advances the simulation by 1 ms. The loop body is
 * {@code spin_lock; compute 100 ns; spin_unlock; preempt_disable; preempt_enable;
 * local_irq_save; local_irq_restore}: 7 operations per 100 ns of simulated time, so 1 ms is
 * 10,000 iterations = 70,000 operations (the PIT tick every 10 ms adds a few more, ignored).
 * Reported as operations per microsecond of real time; run with {@code -prof gc} to see that
 * the interpreter allocates nothing per operation.
 *
 * <p>Run: {@code ./mvnw -q -pl benchmarks -am package -DskipTests && java -jar
 * benchmarks/target/benchmarks.jar Interpreter -prof gc}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class InterpreterBenchmark {

  private static final long SIM_NS_PER_INVOCATION = 1_000_000;

  private static final Site BODY = new Site("bench/loop.c", "tight_loop", "body");

  private Kernel kernel;
  private long until;

  /** A kernel running the tight loop, for this benchmark and its test. */
  public static Kernel tightLoopKernel(Scheduler scheduler) {
    SpinLock l = SpinLock.spin("bench_lock");
    KernelPath loop =
        KernelPath.path("bench/loop.c", "tight_loop")
            .loop(BODY, Long.MAX_VALUE, b -> b
                .spinLock(l)
                .compute(100)
                .spinUnlock(l)
                .preemptDisable()
                .preemptEnable()
                .localIrqSave()
                .localIrqRestore())
            .build();
    // A production kernel: no debug checks, no event ring (the interpreter's own cost).
    return new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(scheduler)
        .debugChecks(DebugChecks.none())
        .ksoftirqd(false)
        .task(TaskSpec.kernelThread("looper", loop))
        .build();
  }

  @Param({"o1"})
  public String scheduler;

  @Setup(Level.Trial)
  public void setUp() {
    kernel = tightLoopKernel(SchedulerProvider.create(scheduler));
    until = 0;
  }

  @Benchmark
  @OperationsPerInvocation(70_000)
  public long runOneMillisecond() {
    until += SIM_NS_PER_INVOCATION;
    kernel.run(until);
    return kernel.eventsFired();
  }
}
