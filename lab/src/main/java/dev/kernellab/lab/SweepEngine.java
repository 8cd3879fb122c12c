package dev.kernellab.lab;

import dev.kernellab.kernel.spi.Registry;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Runs the cells of a {@code kernel-lab sweep}: the built-in {@code local} engine runs them on a
 * thread pool of this JVM; other engines ({@code spark}, in the {@code lab-spark} module) are
 * found by {@link #name()} in {@link #REGISTRY}, kernel-core's {@link Registry} that also finds
 * schedulers, patches and workloads, so the lab never depends on them.
 *
 * <p>What an engine must do: run every cell it is given, each as one single-threaded simulation
 * ({@link CellJson#run} does exactly that for one cell), and tell the listener each cell's
 * {@link CellOutcome} as it finishes, in any order and from any thread, exactly once per cell.
 * A {@link dev.kernellab.kernel.KernelBug} is an outcome, never retried; a failure of the engine's
 * own machinery may be retried, and a cell that still cannot run is {@link CellOutcome.Failure#LOST
 * lost}. The sweep, not the engine, orders the outcomes, writes the results file and prints the
 * table, so the output is the same whichever engine ran the cells.
 *
 * <pre>
 * // META-INF/services/dev.kernellab.lab.SweepEngine (lab-spark's; the lab's lists local)
 * dev.kernellab.spark.SparkSweepEngine
 * </pre>
 */
public interface SweepEngine extends Registry.Provider {

  /** Every registered engine, sorted by name; the lab itself registers {@code local}. */
  Registry<SweepEngine> REGISTRY = Registry.sorted("engine", SweepEngine.class);

  /** The name users pass to {@code --engine}. */
  @Override
  String name();

  /**
   * Runs {@code cells} and returns when each has been reported to {@code listener}.
   *
   * @throws IllegalArgumentException if {@code options} asks for what this engine does not take
   */
  void run(List<Experiment> cells, Options options, Listener listener);

  /** Receives each cell's outcome as it finishes; may be called from several threads at once. */
  @FunctionalInterface
  interface Listener {
    /** One cell finished, or failed for good. */
    void finished(CellOutcome outcome);
  }

  /**
   * What the user asked of the engine.
   *
   * @param workers simulations at once ({@code --workers}), for the local engine
   * @param master where a distributed engine runs ({@code --master}, for Spark a master URL)
   * @param quiet no progress on {@code err}
   * @param err where progress goes
   */
  record Options(OptionalInt workers, Optional<String> master, boolean quiet, PrintWriter err) {}

  /**
   * The engine registered as {@code name}.
   *
   * @throws IllegalArgumentException naming the known engines if there is none such
   */
  static SweepEngine named(String name) {
    Optional<SweepEngine> found = REGISTRY.find(name);
    if (found.isPresent()) {
      return found.get();
    }
    if (name.equals("spark")) {
      throw new IllegalArgumentException("--engine spark: lab-spark is not on the class path (run ./kernel-lab,"
          + " which builds it, or spark-submit lab-spark/target/kernel-lab-spark.jar)");
    }
    return REGISTRY.get(name);
  }
}
