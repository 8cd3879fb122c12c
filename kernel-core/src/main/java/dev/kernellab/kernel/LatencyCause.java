package dev.kernellab.kernel;

/**
 * SPI for patch and path-catalog authors: a cause of latency that the code of a kernel path
 * stands for and that the kernel's own state cannot name. A latency analysis names what held
 * the CPU from that state (interrupts off, a spinlock or the big kernel lock, the preempt
 * count, an interrupt or softirq context, a kernel that cannot be preempted); a patch that adds
 * a mechanism of its own (a BIOS call with interrupts off, a handler thread, a lock break's
 * revalidation) declares it with {@link KernelPath.Builder#cause}, and the analysis reports this
 * cause, with its own fields, for the time the CPU spent in that path and in whatever it calls.
 *
 * <pre>{@code
 * record BiosCall(String function) implements LatencyCause {
 *   public String describe(String task, KernelPath path, long ns) {
 *     return "APM BIOS call " + function + " by " + task + " for " + ns / 1000 + " us";
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
   * The cause in one line of words, for {@code ns} during which {@code task} ran {@code path}
   * (the path that declared this cause, or a path it called) while a latency probe waited.
   */
  String describe(String task, KernelPath path, long ns);
}
