package dev.kernellab.spark;

import dev.kernellab.lab.CellJson;
import dev.kernellab.lab.CellOutcome;
import dev.kernellab.lab.Experiment;
import dev.kernellab.lab.SweepEngine;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.rdd.RDD;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * {@code kernel-lab sweep --engine spark}: the sweep's cells as one Apache Spark job, one cell per
 * task, each task one single-threaded simulation. {@code --master} picks the cluster
 * ({@code local[*]} when neither it nor {@code spark-submit} names one).
 *
 * <pre>
 * ./kernel-lab sweep --engine spark --master local[2] --seeds 1..16 --duration 10s
 * spark-submit --master spark://host:7077 lab-spark/target/kernel-lab-spark.jar sweep --engine spark ...
 * </pre>
 *
 * <p>Implementation overview. The driver sends each cell as its {@link CellJson} line and gets
 * back its outcome line, so Spark's serializer only ever moves strings and the figures are the
 * ones a local sweep computes (a cell's figures depend on its coordinates alone). The job runs
 * with a result handler ({@code SparkContext.runJob}), called on the driver as each task ends, so
 * the sweep's listener (progress, the {@code --results} file) sees every cell as it finishes.
 *
 * <p>Failures: a {@code KernelBug} is caught inside the task and comes back as the cell's outcome,
 * so Spark never retries it. Anything else that fails a task (an executor lost, an error of the
 * JVM) is Spark's to retry, up to {@code spark.task.maxFailures} ({@code local[N,F]} in local
 * mode). A task out of retries aborts the whole job, so the engine runs rounds: after an abort,
 * the cells whose tasks failed most in that round are reported lost, and a new job runs the cells
 * not yet finished. The failing tasks are known from a {@link CellFailures} listener, read once
 * the listener bus has delivered the job's end (it delivers events in order).
 */
public final class SparkSweepEngine implements SweepEngine {

  /** The {@code --engine} name. */
  public static final String NAME = "spark";

  /** The master when neither {@code --master} nor {@code spark-submit} names one. */
  static final String DEFAULT_MASTER = "local[*]";

  /** Spark's console log: WARN and above, so that the sweep's table stays readable. */
  static final String QUIET_LOG_CONFIG = "dev/kernellab/spark/log4j2-kernel-lab.properties";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void run(List<Experiment> cells, Options options, Listener listener) {
    if (options.workers().isPresent()) {
      throw new IllegalArgumentException("--workers is for the local engine; Spark runs as many cells at once"
          + " as its master gives it cores (--master local[N], or the cluster's executors)");
    }
    if (cells.isEmpty()) {
      return;
    }
    quietLogUnlessConfigured();
    SparkConf conf = new SparkConf().setAppName("kernel-lab sweep");
    options.master().ifPresent(conf::setMaster);
    if (!conf.contains("spark.master")) {
      conf.setMaster(DEFAULT_MASTER);
    }
    PrintWriter err = options.err();
    SparkContext sc;
    try {
      sc = new SparkContext(conf);
    } catch (Exception e) { // Scala declares nothing: a bad master URL is a checked SparkException
      throw new IllegalArgumentException("--master " + conf.get("spark.master") + ": " + firstLine(e.getMessage()), e);
    }
    try {
      if (!options.quiet()) {
        err.printf(Locale.ROOT, "kernel-lab: %d cells as a Spark job on %s%s%n", cells.size(), sc.master(),
            sc.uiWebUrl().isDefined() ? ", UI at " + sc.uiWebUrl().get() : "");
      }
      sc.setJobDescription("kernel-lab sweep: " + cells.size() + " cells of " + cells.get(0).workload());
      runRounds(sc, cells, options, listener);
    } finally {
      sc.stop();
    }
  }

  private static void runRounds(SparkContext sc, List<Experiment> cells, Options options, Listener listener) {
    List<String> lines = new ArrayList<>();
    for (Experiment e : cells) {
      lines.add(CellJson.cell(e));
    }
    // one cell per partition: a task is one simulation, and Spark retries or moves it alone
    RDD<String> rdd = new JavaSparkContext(sc).parallelize(lines, lines.size()).rdd();
    Set<Integer> remaining = java.util.Collections.synchronizedSet(new TreeSet<>());
    for (int i = 0; i < cells.size(); i++) {
      remaining.add(i);
    }
    CellFailures failures = new CellFailures();
    sc.addSparkListener(failures);
    AtomicInteger finished = new AtomicInteger();
    ClassTag<String> tag = ClassTag$.MODULE$.apply(String.class);
    while (!remaining.isEmpty()) {
      List<Integer> round;
      synchronized (remaining) {
        round = new ArrayList<>(remaining);
      }
      failures.startRound();
      try {
        // the handler runs on the driver and is told the task's place in this round's list
        sc.runJob(rdd, new RunCell(), partitions(round), new ResultHandler((line, position) -> {
          CellOutcome o = CellJson.outcome(line);
          remaining.remove(round.get(position));
          listener.finished(o);
          if (!options.quiet()) {
            options.err().printf(Locale.ROOT, "kernel-lab: cell %d/%d %s: %s%n", finished.incrementAndGet(),
                cells.size(), describe(o.cell()), o instanceof CellOutcome.Done ? "done" : "kernel bug");
          }
        }), tag);
      } catch (Exception abort) { // a SparkException, checked but undeclared by Scala
        if (abort instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        List<Integer> lost = new ArrayList<>();
        Map<Integer, String> reasons = sc.isStopped() ? Map.of() : failures.awaitWorstOfRound();
        synchronized (remaining) {
          reasons.keySet().stream().filter(remaining::contains).forEach(lost::add);
          if (lost.isEmpty()) {
            // nothing to blame (the context stopped, e.g. on Ctrl-C): every cell left is lost
            lost.addAll(remaining);
          }
          lost.forEach(remaining::remove);
        }
        for (int i : lost) {
          String why = reasons.getOrDefault(i, firstLine(abort.getMessage()));
          listener.finished(new CellOutcome.Failed(cells.get(i), CellOutcome.Failure.LOST, why));
          if (!options.quiet()) {
            options.err().printf(Locale.ROOT, "kernel-lab: cell %d/%d %s: lost (%s)%n", finished.incrementAndGet(),
                cells.size(), describe(cells.get(i)), why);
          }
        }
      }
    }
    sc.removeSparkListener(failures);
  }

  /** Spark's log to WARN unless the user (or spark-submit) configured log4j2 already. */
  private static void quietLogUnlessConfigured() {
    if (System.getProperty("log4j2.configurationFile") == null && System.getProperty("log4j.configurationFile") == null
        && System.getenv("SPARK_CONF_DIR") == null) {
      System.setProperty("log4j2.configurationFile", QUIET_LOG_CONFIG);
    }
  }

  private static String describe(Experiment e) {
    return e.workload() + " " + e.config() + " seed " + e.seed();
  }

  static String firstLine(String s) {
    return s == null ? "" : s.lines().findFirst().orElse("");
  }

  /** Partition indices as Spark's Scala API takes them. */
  private static scala.collection.immutable.Seq<Object> partitions(List<Integer> indices) {
    List<Object> boxed = new ArrayList<>(indices);
    return scala.jdk.javaapi.CollectionConverters.asScala(boxed).toSeq();
  }
}
