package dev.kernellab.spark;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.spark.TaskFailedReason;
import org.apache.spark.TaskKilled;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * Counts the failed attempts of each cell's task in the current round, so that after a job
 * aborts the engine can tell which cells used up their retries. Tasks killed because the job was
 * aborted are not failures of their own.
 */
final class CellFailures extends SparkListener {

  /** How long to wait for the listener bus to deliver a job's end after the job returned. */
  private static final long BUS_WAIT_S = 30;

  private final Map<Integer, Integer> attempts = new HashMap<>(); // partition -> failed attempts this round
  private final Map<Integer, String> lastReason = new HashMap<>();
  private CountDownLatch jobEnded = new CountDownLatch(1);

  synchronized void startRound() {
    attempts.clear();
    lastReason.clear();
    jobEnded = new CountDownLatch(1);
  }

  @Override
  public synchronized void onTaskEnd(SparkListenerTaskEnd end) {
    if (end.reason() instanceof TaskFailedReason failed && !(end.reason() instanceof TaskKilled)) {
      int partition = end.taskInfo().partitionId();
      attempts.merge(partition, 1, Integer::sum);
      lastReason.put(partition, SparkSweepEngine.firstLine(failed.toErrorString()));
    }
  }

  @Override
  public void onJobEnd(SparkListenerJobEnd end) {
    latch().countDown();
  }

  private synchronized CountDownLatch latch() {
    return jobEnded;
  }

  /**
   * After an aborted job: the cells whose tasks failed most often this round, with the last
   * reason, by partition; empty if none failed (or the bus did not deliver in time).
   */
  Map<Integer, String> awaitWorstOfRound() {
    try {
      if (!latch().await(BUS_WAIT_S, TimeUnit.SECONDS)) {
        return Map.of();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Map.of();
    }
    synchronized (this) {
      int most = attempts.values().stream().mapToInt(Integer::intValue).max().orElse(0);
      Map<Integer, String> out = new TreeMap<>();
      attempts.forEach((p, n) -> {
        if (n == most) {
          out.put(p, lastReason.get(p));
        }
      });
      return out;
    }
  }
}
