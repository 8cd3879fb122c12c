package dev.kernellab.benchmarks;

import dev.kernellab.kernel.StandaloneSchedulerHost;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.SchedulerProvider;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one {@code scheduler_tick()} plus one {@code schedule()} on one CPU with N runnable
 * CPU-bound SCHED_OTHER tasks, for each registered scheduler: the O(1) claim is a flat curve,
 * 2.4's goodness() loop a rising one (and its epoch recalculation over all tasks shows up in
 * the average). Both schedulers run in one invocation, so the curves print side by side.
 *
 * <p>Run: {@code ./mvnw -q -pl benchmarks -am package -DskipTests && java -jar
 * benchmarks/target/benchmarks.jar SchedulerCost}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class SchedulerCostBenchmark {

  @Param({"o1", "goodness"})
  public String scheduler;

  @Param({"10", "100", "1000", "10000"})
  public int tasks;

  private StandaloneSchedulerHost host;

  @Setup(Level.Trial)
  public void setUp() {
    host = new StandaloneSchedulerHost(SchedulerProvider.create(scheduler), 1, 100);
    for (int pid = 1; pid <= tasks; pid++) {
      host.spawn(host.newTask(pid, "hog" + pid, SchedPolicy.OTHER, 0, 0), 0);
    }
    host.schedule(0);
  }

  @Benchmark
  public Object tickAndSchedule() {
    host.tick();
    return host.schedule(0);
  }
}
