package dev.kernellab.workloads.rtapp;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One thread's log as rt-app writes it at the end of a run, immutable: the file's name
 * ({@code <log_basename>-<thread>.log}, src/rt-app.c setup_thread_logging, the thread named
 * {@code <task>-<index>} as rt-app names it) and its rows. {@link #text} is the file: rt-app's
 * header line and one line a row, in the format strings of src/rt-app.c thread_body and
 * src/rt-app_utils.c log_timing, so the scripts that read rt-app's logs read it.
 *
 * <pre>{@code
 * for (RtAppLogFile f : RtAppWorkload.logFiles(run)) {
 *   Files.writeString(dir.resolve(f.name()), f.text());
 * }
 * }</pre>
 *
 * @param name the file's name, e.g. {@code rt-app-audio-0.log}
 * @param thread the thread, e.g. {@code audio-0}
 * @param rowsWritten the rows the thread logged; more than {@code rows} once the log wrapped
 *     ({@link RtAppLog#ROWS_KEPT})
 * @param rows the rows kept, oldest first
 */
public record RtAppLogFile(String name, String thread, long rowsWritten, List<Row> rows) {

  /** rt-app's header line (src/rt-app.c thread_body). */
  public static final String HEADER = String.format(Locale.ROOT, "%s %8s %8s %8s %15s %15s %15s %10s %10s %10s %10s",
      "#idx", "perf", "run", "period", "start", "end", "rel_st", "slack", "c_duration", "c_period", "wu_lat");

  /** Copies the list; a name is one file name. */
  public RtAppLogFile {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(thread, "thread");
    if (!isFileNameStart(name)) {
      throw new IllegalArgumentException("an rt-app log's name is one file name, got '" + name + "'");
    }
    rows = List.copyOf(rows);
  }

  /** True for the beginning of a plain file name: not empty, no separator, no leading '.'. */
  static boolean isFileNameStart(String s) {
    return !s.isEmpty() && !s.contains("/") && !s.contains("\\") && !s.startsWith(".");
  }

  /**
   * One row: one run of a phase, in rt-app's columns and units (microseconds; {@code perf} in
   * loops of the calibration).
   *
   * @param idx the thread's index ({@code #idx})
   * @param perf work done, in calibration loops
   * @param run time spent in run events
   * @param period the row's length, start to end
   * @param start the row's start, on the monotonic clock
   * @param end its end
   * @param relSt its start from rt-app's t_zero
   * @param slack the timer's slack (negative for an overrun)
   * @param cDuration the run events' sum as configured
   * @param cPeriod the timer periods' sum as configured
   * @param wuLat the timer's wake-up latency
   */
  public record Row(int idx, long perf, long run, long period, long start, long end, long relSt, long slack,
      long cDuration, long cPeriod, long wuLat) {

    /** The row as log_timing prints it. */
    public String line() {
      return String.format(Locale.ROOT, "%4d %8d %8d %8d %15d %15d %15d %10d %10d %10d %10d", idx, perf, run, period,
          start, end, relSt, slack, cDuration, cPeriod, wuLat);
    }
  }

  /** The file: the header line, then a line a row, each ending in a newline. */
  public String text() {
    StringBuilder s = new StringBuilder(HEADER.length() + 1 + rows.size() * 120);
    s.append(HEADER).append('\n');
    for (Row r : rows) {
      s.append(r.line()).append('\n');
    }
    return s.toString();
  }
}
