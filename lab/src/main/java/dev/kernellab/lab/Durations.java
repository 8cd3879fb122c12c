package dev.kernellab.lab;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations on the command line ({@code 60s}, {@code 10m}, {@code 12h}, {@code 500ms}) and in output. */
final class Durations {

  // "min" as well as "m": the tool itself prints minutes as "min"
  private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|ms|s|min|m|h)");

  private Durations() {}

  /**
   * Nanoseconds of {@code text}, given as {@code option}; one clear message naming the option if
   * it is not a duration of 1 ns to 11 days.
   */
  static long parseOption(String option, String text) {
    try {
      return parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option + ": " + e.getMessage());
    }
  }

  /**
   * {@link #parseOption} for a length that may be nothing: 0, with or without a unit, is 0 ns
   * (a wall-time floor switched off), and the range is 0 to 11 days.
   */
  static long parseOptionOrZero(String option, String text) {
    try {
      return text != null && text.trim().matches("0+(\\.0+)?") ? 0 : parse(text, 0);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option + ": " + e.getMessage());
    }
  }

  /** Nanoseconds of {@code text}; one clear message if it is not a duration. */
  static long parse(String text) {
    return parse(text, 1);
  }

  /** {@link #parse(String)} of a duration of {@code minNs} (0 or 1) to 11 days. */
  private static long parse(String text, long minNs) {
    Matcher m = text == null ? null : DURATION.matcher(text.trim());
    if (m == null || !m.matches()) {
      throw new IllegalArgumentException(
          "bad duration '" + text + "': a number and a unit, e.g. 500ms, 60s, 10m or 10min, 12h");
    }
    double v = Double.parseDouble(m.group(1));
    double unit = switch (m.group(2)) {
      case "ns" -> 1;
      case "us" -> 1e3;
      case "ms" -> 1e6;
      case "s" -> 1e9;
      case "m", "min" -> 60e9;
      default -> 3600e9;
    };
    double ns = v * unit;
    if (ns < minNs || ns > 1e15 || ns > 0 && ns < 1) {
      throw new IllegalArgumentException(
          "duration '" + text + "' out of range (" + (minNs == 0 ? "0, or " : "") + "1 ns .. 11 days)");
    }
    return (long) ns;
  }

  /** A latency for a table: {@code 5.1us}, {@code 13.48ms}, {@code 1.20s}. */
  static String latency(long ns) {
    if (ns < 1_000_000) {
      return String.format(Locale.ROOT, "%.1fus", ns / 1e3);
    }
    if (ns < 1_000_000_000) {
      return String.format(Locale.ROOT, "%.2fms", ns / 1e6);
    }
    return String.format(Locale.ROOT, "%.2fs", ns / 1e9);
  }

  /** Simulated time in words: {@code 60 s}, {@code 12 h}. */
  static String simulated(long ns) {
    if (ns % 3_600_000_000_000L == 0) {
      return ns / 3_600_000_000_000L + " h";
    }
    if (ns % 60_000_000_000L == 0 && ns >= 60_000_000_000L) {
      return ns / 60_000_000_000L + " min";
    }
    return String.format(Locale.ROOT, "%.3g s", ns / 1e9);
  }
}
