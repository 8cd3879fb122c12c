package dev.kernellab.lab;

import java.util.List;

/**
 * One latency sample split into its parts, in time order, whose lengths add up to the sample,
 * and the culprit: the kernel state behind the part that dominates.
 *
 * @param latencyNs the sample
 * @param atNs when it ended (the probe back in user mode)
 * @param cpu the CPU the probe ran on
 * @param parts the parts, in time order
 * @param culpritPath the kernel path (and its site, for a loop) that the culprit ran, or null
 * @param culpritSite the loop site, or null
 * @param culpritLock the innermost spinlock held, or null
 * @param culpritTask the task that held the CPU, or null
 * @param culpritReason why it could not be preempted or interrupted, in words
 */
public record Breakdown(
    long latencyNs,
    long atNs,
    int cpu,
    List<Part> parts,
    String culpritPath,
    String culpritSite,
    String culpritLock,
    String culpritTask,
    String culpritReason) {

  /** A part of a sample: its name, its length, and its cause in words. */
  public record Part(String part, long ns, String cause) {}

  /** The part that took longest. */
  public Part dominant() {
    Part best = parts.get(0);
    for (Part p : parts) {
      if (p.ns() > best.ns()) {
        best = p;
      }
    }
    return best;
  }

  /** The culprit in one line: {@code path [site] (reason)}. */
  public String culprit() {
    StringBuilder sb = new StringBuilder();
    if (culpritPath != null) {
      sb.append(culpritPath);
    }
    if (culpritReason != null) {
      sb.append(sb.length() > 0 ? " (" : "").append(culpritReason).append(sb.length() > 0 && culpritPath != null ? ")" : "");
    }
    return sb.toString();
  }
}
