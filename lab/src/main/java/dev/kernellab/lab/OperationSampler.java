package dev.kernellab.lab;

import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.OperationProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a run's wall time goes, by kind of interpreted operation: the JDK Flight Recorder's
 * method samples of the running thread (one a millisecond), each credited to the innermost
 * operation whose {@code exec} is on the sampled stack, or, when none is (the event queue, the
 * CPU model, the scheduler called from an event), to the innermost KernelLab method. Sampling
 * costs the run nothing measurable; the operation counts ({@link Kernel#profileOperations}) cost
 * a little, which is why {@code bench} measures its timing columns in a run of their own.
 */
final class OperationSampler {

  /** The sampling period: JFR's shortest useful one for a run of seconds. */
  static final Duration PERIOD = Duration.ofMillis(1);

  /** Samples of a run: by operation kind, and outside any operation by method. */
  record Samples(long total, Map<String, Long> byKind, Map<String, Long> outside) {}

  private OperationSampler() {}

  /** Runs {@code k} to {@code endNs} on this thread under a recording; its samples. */
  static Samples run(Kernel k, long endNs) {
    Path file = null;
    try (Recording r = new Recording()) {
      r.enable("jdk.ExecutionSample").withPeriod(PERIOD).withStackTrace();
      r.setToDisk(true);
      r.start();
      k.run(endNs);
      r.stop();
      file = Files.createTempFile("kernel-lab-bench", ".jfr");
      r.dump(file);
      return read(file, Thread.currentThread().getId());
    } catch (IOException e) {
      throw new UncheckedIOException("the flight recording of the profiled run: " + e.getMessage(), e);
    } finally {
      if (file != null) {
        try {
          Files.deleteIfExists(file);
        } catch (IOException e) {
          // a temporary file of the JDK's own temporary directory; nothing of the user's
        }
      }
    }
  }

  private static Samples read(Path file, long threadId) throws IOException {
    Map<String, String> kindOfClass = new HashMap<>();
    for (OperationProfile.Count c : OperationProfile.kinds()) {
      kindOfClass.put(c.className(), c.name());
    }
    Map<String, Long> byKind = new TreeMap<>();
    Map<String, Long> outside = new TreeMap<>();
    long total = 0;
    List<RecordedEvent> events = RecordingFile.readAllEvents(file);
    for (RecordedEvent e : events) {
      if (!e.getEventType().getName().equals("jdk.ExecutionSample")
          || e.getThread("sampledThread") == null
          || e.getThread("sampledThread").getJavaThreadId() != threadId
          || e.getStackTrace() == null) {
        continue;
      }
      total++;
      String kind = null;
      String firstOwn = null;
      for (RecordedFrame f : e.getStackTrace().getFrames()) {
        if (!f.isJavaFrame()) {
          continue;
        }
        String type = f.getMethod().getType().getName();
        if (f.getMethod().getName().equals("exec") && kindOfClass.containsKey(type)) {
          kind = kindOfClass.get(type);
          break;
        }
        if (firstOwn == null && type.startsWith("dev.kernellab.")) {
          firstOwn = type.substring("dev.kernellab.".length()) + "." + f.getMethod().getName();
        }
      }
      if (kind != null) {
        byKind.merge(kind, 1L, Long::sum);
      } else {
        outside.merge(firstOwn != null ? firstOwn : "(the JVM)", 1L, Long::sum);
      }
    }
    return new Samples(total, byKind, outside);
  }
}
