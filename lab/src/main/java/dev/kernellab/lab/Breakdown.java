package dev.kernellab.lab;

import java.util.List;

/**
 * One latency sample in words, as {@link AnatomyText} renders its anatomy: the parts in time
 * order, whose lengths add up to the sample, and the culprit, the cause of the part that
 * dominates. This is what every output prints and what a sweep's results carry between
 * processes.
 *
 * @param latencyNs the sample
 * @param atNs when it ended (the probe back in user mode)
 * @param cpu the CPU the probe ran on
 * @param parts the parts, in time order
 * @param dominantPart the index in {@code parts} of the part that dominates (the anatomy's
 *     choice: the longest, the timer's granularity only when nothing else took time)
 * @param culpritPath the kernel path (and its site, for a loop) that the culprit ran, or null
 * @param culpritSite the loop site, or null
 * @param culpritLock the innermost spinlock held, or null
 * @param culpritTask the task that held the CPU, or null
 * @param culpritReason the culprit in words
 */
public record Breakdown(
    long latencyNs,
    long atNs,
    int cpu,
    List<Part> parts,
    int dominantPart,
    String culpritPath,
    String culpritSite,
    String culpritLock,
    String culpritTask,
    String culpritReason) {

  /**
   * A part of a sample: its name, its length, its cause in words, and, for a wait that several
   * things held in turn, each of them, adding up to the part.
   */
  public record Part(String part, long ns, String cause, List<Share> shares) {}

  /** One of the things that held the CPU in turn during a wait, and for how long. */
  public record Share(long ns, String cause) {}

  /** Checks the dominant part is one of the parts. */
  public Breakdown {
    parts = List.copyOf(parts);
    if (dominantPart < 0 || dominantPart >= parts.size()) {
      throw new IllegalArgumentException("dominant part " + dominantPart + " of " + parts.size() + " parts");
    }
  }

  /** The part that dominates. */
  public Part dominant() {
    return parts.get(dominantPart);
  }
}
