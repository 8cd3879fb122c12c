package dev.kernellab.kernel.spi;

/**
 * SPI for patch and path-catalog authors: a cause of latency that the code of a kernel path
 * stands for and that the kernel's own state cannot name. A latency analysis names what held
 * the CPU from that state (interrupts off, a spinlock or the big kernel lock, the preempt
 * count, an interrupt or softirq context, a kernel that cannot be preempted); a patch that adds
 * a mechanism of its own (a BIOS call with interrupts off, a handler thread, a lock break's
 * revalidation) declares it with {@code KernelPath.Builder.cause}, and the analysis reports this
 * cause, with its own fields, for the time the CPU spent in that path and in whatever it calls.
 *
 * <pre>{@code
 * record BiosCall(String function) implements LatencyCause {
 *   public String describe(LatencyCause.Hold h) {
 *     return "APM BIOS call " + function + " by " + h.task() + " for " + h.ns() / 1000 + " us";
 *   }
 * }
 * KernelPath apm = KernelPath.path("arch/i386/kernel/apm.c", "apm_bios_call")
 *     .cause(new BiosCall("APM_GET_EVENT")).localIrqDisable().compute(300_000).localIrqEnable()
 *     .build();
 * }</pre>
 *
 * <p>Implement it with a record of the cause's own fields, so a library user can tell one cause
 * from another by its type. Must not change after the path is built.
 */
public interface LatencyCause {

  /**
   * The cause in one line of words, for the stretch {@code hold} during which a probe waited.
   */
  String describe(Hold hold);

  /**
   * What the CPU did for a cause while a probe waited: who ran which path, for how long, and
   * how much of its loop.
   *
   * @param task the task that ran, as {@code comm[pid]}
   * @param path the path running (the one that declared the cause, or one it called); a loop
   *     body's path has the loop's {@link PathView#site() site}
   * @param ns how long
   * @param iterations how many iterations of {@code path}'s loop ran in that time (the buffers
   *     completed, the packets received, the pages copied); 0 when {@code path} is no loop body
   */
  record Hold(String task, PathView path, long ns, long iterations) {

    /**
     * {@link #iterations()} if {@link #path()} is the body of the loop at {@code site}, else 0:
     * what a cause that names its loop's count asks before it says "N pages written".
     */
    public long iterationsAt(Site site) {
      return site.equals(path.site()) ? iterations : 0;
    }
  }
}
