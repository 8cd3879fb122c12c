package dev.kernellab.lab;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.paths.Kernel24Paths;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * The SCHED_FIFO priorities a run gives device lines' handler threads
 * ({@code --irq-thread-priority 8=80}), as a PREEMPT_RT user did with
 * {@code chrt -f -p 80 $(pidof "irq/8-rtc")}: where a configuration's patches thread interrupts,
 * {@code irq/N-name} runs at the priority given instead of 50 ({@link KernelBuilder#irqThreadPriority});
 * a configuration that threads none runs as it is
 * ({@link KernelBuilder#irqThreadPriorityWhereThreaded}), so one setting serves a compare of
 * vanilla and rt. None by default.
 *
 * <p>A line is a number or its handler's name as the lab's kernels have it (the RTC's
 * {@code rtc} on 8, the IDE disk's {@code ide0} on 14: {@link KernelBuilder#deviceLines} of a
 * kernel with the catalog's drivers). The record checks only kernel-core's rules that need no
 * kernel (not the timer's line, a line number, a priority of 1 to 99:
 * {@link KernelBuilder#checkIrqThreadLine}), so reading a results file back stays cheap; the
 * command line ({@link #parse}) also refuses a line without a handler in the lab's kernels,
 * and the builder refuses one when it composes a kernel.
 *
 * @param byLine the priority of each line's thread, by line number
 */
public record IrqThreadPriorities(SortedMap<Integer, Integer> byLine) {

  /** No line's thread changed: every one at 50. */
  public static final IrqThreadPriorities NONE = new IrqThreadPriorities(new TreeMap<>());

  /** Checks each line and priority by kernel-core's rules that need no kernel. */
  public IrqThreadPriorities {
    SortedMap<Integer, Integer> copy = new TreeMap<>(byLine);
    copy.forEach(KernelBuilder::checkIrqThreadLine);
    byLine = Collections.unmodifiableSortedMap(copy);
  }

  /**
   * The device lines of every kernel the lab composes, with their handlers' names: what the
   * catalog's drivers request ({@link Kernel24Paths#install}).
   */
  static SortedMap<Integer, String> labLines() {
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 0);
    Kernel24Paths.withDefaults().install(b);
    return b.deviceLines();
  }

  private static String describe(Map<Integer, String> lines) {
    StringJoiner j = new StringJoiner(", ");
    lines.forEach((irq, name) -> j.add(irq + " " + name));
    return j.toString();
  }

  /**
   * From the command line: {@code none}, or {@code LINE=PRIO} pairs joined by commas, LINE a
   * number or a handler's name ({@code rtc=80,14=60}); a line given twice is refused.
   */
  static IrqThreadPriorities parse(String text) {
    return Experiment.option("--irq-thread-priority", () -> parseList(text));
  }

  private static IrqThreadPriorities parseList(String text) {
    if (text.equals("none")) {
      return NONE;
    }
    SortedMap<Integer, String> lines = labLines();
    SortedMap<Integer, Integer> out = new TreeMap<>();
    for (String pair : text.split(",", -1)) {
      int eq = pair.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("'" + pair + "' is not LINE=PRIO, e.g. 8=80 or rtc=80");
      }
      String line = pair.substring(0, eq).trim();
      int irq = line(line, lines);
      int prio;
      try {
        prio = Integer.parseInt(pair.substring(eq + 1).trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("'" + pair + "': the priority is a number, 1 to 99", e);
      }
      if (out.put(irq, prio) != null) {
        throw new IllegalArgumentException("IRQ " + irq + " is given twice");
      }
    }
    IrqThreadPriorities p = new IrqThreadPriorities(out);
    // a line without a handler has no thread in any of the lab's kernels: said here, by name
    for (int irq : out.keySet()) {
      if (!lines.containsKey(irq)) {
        throw new IllegalArgumentException("IRQ " + irq
            + " has no handler in the lab's kernels, so no thread (lines: " + describe(lines)
            + ")");
      }
    }
    return p;
  }

  /** {@code line}'s number: itself if a number, else the line whose handler has that name. */
  private static int line(String line, SortedMap<Integer, String> lines) {
    if (!line.isEmpty() && line.chars().allMatch(Character::isDigit)) {
      try {
        return Integer.parseInt(line);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("no IRQ line " + line, e);
      }
    }
    for (Map.Entry<Integer, String> e : lines.entrySet()) {
      if (e.getValue().equals(line)) {
        return e.getKey();
      }
    }
    throw new IllegalArgumentException("no line's handler is named '" + line + "' (lines: " + describe(lines) + ")");
  }

  /** Whether no line is set. */
  public boolean isEmpty() {
    return byLine.isEmpty();
  }

  /** {@code 8=80,14=60}, as the option takes it, or {@code none}. */
  @Override
  public String toString() {
    if (byLine.isEmpty()) {
      return "none";
    }
    StringJoiner j = new StringJoiner(",");
    byLine.forEach((irq, prio) -> j.add(String.format(Locale.ROOT, "%d=%d", irq, prio)));
    return j.toString();
  }

  /** The option that gives these priorities, or nothing where none is set. */
  String options() {
    return byLine.isEmpty() ? "" : " --irq-thread-priority " + this;
  }
}
