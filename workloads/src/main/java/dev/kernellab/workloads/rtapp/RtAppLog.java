package dev.kernellab.workloads.rtapp;

import java.util.ArrayList;
import java.util.List;

/**
 * One thread's log, in rt-app's columns (src/rt-app.c thread_body, src/rt-app_utils.c
 * log_timing): a row for each run of a phase. Times in microseconds, as rt-app's are, read
 * from the simulated clock (rt-app reads CLOCK_MONOTONIC; 2.4 has none, and its
 * gettimeofday is the same clock here).
 *
 * <p>The rows sit in fixed arrays allocated once, {@link #ROWS_KEPT} of them; a longer run
 * keeps the last ones, as rt-app's own in-memory log ({@code log_size}) wraps.
 */
public final class RtAppLog {

  /** Rows kept per thread: 4,096 (a 1 ms loop's last 4 s). */
  public static final int ROWS_KEPT = 4_096;

  /** The columns after {@code #idx}, in rt-app's order. */
  public static final List<String> COLUMNS =
      List.of("perf", "run", "period", "start", "end", "rel_st", "slack", "c_duration", "c_period", "wu_lat");

  private final String thread;
  private final int index;
  private final long[][] rows = new long[COLUMNS.size()][ROWS_KEPT];
  private long written;

  RtAppLog(String thread, int index) {
    this.thread = thread;
    this.index = index;
  }

  /** The thread ({@code thread0-0}). */
  public String thread() {
    return thread;
  }

  /** Rows written so far (more than are kept once the log wraps). */
  public long rows() {
    return written;
  }

  void add(long perf, long run, long period, long start, long end, long relSt, long slack, long cDuration,
      long cPeriod, long wuLat) {
    int i = (int) (written % ROWS_KEPT);
    rows[0][i] = perf;
    rows[1][i] = run;
    rows[2][i] = period;
    rows[3][i] = start;
    rows[4][i] = end;
    rows[5][i] = relSt;
    rows[6][i] = slack;
    rows[7][i] = cDuration;
    rows[8][i] = cPeriod;
    rows[9][i] = wuLat;
    written++;
  }

  /** The value of column {@code column} ({@link #COLUMNS}) in the {@code n}-th row kept, oldest first. */
  public long value(int n, String column) {
    int c = COLUMNS.indexOf(column);
    if (c < 0) {
      throw new IllegalArgumentException("no column " + column + " in an rt-app log");
    }
    long first = Math.max(0, written - ROWS_KEPT);
    if (n < 0 || first + n >= written) {
      throw new IndexOutOfBoundsException("row " + n + " of " + (written - first));
    }
    return rows[c][(int) ((first + n) % ROWS_KEPT)];
  }

  /** Rows kept. */
  public int kept() {
    return (int) Math.min(written, ROWS_KEPT);
  }

  /** The log as rt-app writes it: its header line, then one line a row kept. */
  public List<String> lines() {
    List<String> out = new ArrayList<>();
    out.add(RtAppLogFile.HEADER);
    for (RtAppLogFile.Row r : keptRows()) {
      out.add(r.line());
    }
    return out;
  }

  /** The rows kept, oldest first. */
  private List<RtAppLogFile.Row> keptRows() {
    List<RtAppLogFile.Row> out = new ArrayList<>(kept());
    long first = Math.max(0, written - ROWS_KEPT);
    for (int n = 0; n < kept(); n++) {
      int i = (int) ((first + n) % ROWS_KEPT);
      out.add(new RtAppLogFile.Row(index, rows[0][i], rows[1][i], rows[2][i], rows[3][i], rows[4][i], rows[5][i],
          rows[6][i], rows[7][i], rows[8][i], rows[9][i]));
    }
    return out;
  }

  /**
   * The log as it stands, as the file rt-app would write: {@code <basename>-<thread>.log}
   * (src/rt-app.c setup_thread_logging; {@code basename} is the file's {@code log_basename}).
   */
  public RtAppLogFile file(String basename) {
    return new RtAppLogFile(basename + "-" + thread + ".log", thread, written, keptRows());
  }
}
