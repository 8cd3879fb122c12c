package dev.kernellab.voluntary;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.Patching;
import java.util.List;

/**
 * Ingo Molnar's voluntary preemption, as merged in 2.6.13 ({@code CONFIG_PREEMPT_VOLUNTARY}):
 * every {@code might_sleep()} becomes {@code might_resched()}, a {@code cond_resched()}, so each
 * place where the kernel may sleep is also a place where it reschedules. The low-latency
 * patch's idea applied wholesale, on a kernel that is otherwise not preemptible.
 *
 * <p>A plug-in against the public seams only: it hooks kernel-core's {@link
 * KernelPath#MIGHT_SLEEP} site, which the kernel reaches at each {@code down()}, page fault and
 * fork, and at each point a catalog path marks as one (a copy to or from user space). It
 * composes with {@code lowlat} (whose reschedule points stay) and conflicts with
 * {@code preempt}, which makes the kernel preemptible everywhere already.
 */
@Models(file = "include/linux/kernel.h", function = "might_resched", version = "2.6.13")
@Models(file = "kernel/sched.c", function = "cond_resched", version = "2.6.13")
public final class VoluntaryPreemptPatch implements KernelPatch {

  /** The name users give. */
  public static final String NAME = "voluntary";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void apply(Patching kernel) {
    // include/linux/kernel.h (2.6.13): #ifdef CONFIG_PREEMPT_VOLUNTARY
    //   # define might_resched() cond_resched()
    // and might_sleep() is might_resched() (plus the debug check, not modelled)
    kernel.hookSite(KernelPath.MIGHT_SLEEP,
        KernelPath.path("include/linux/kernel.h", "might_resched").condResched().build());
  }

  @Override
  public List<String> conflicts() {
    return List.of("preempt");
  }

  @Override
  public String toString() {
    return NAME;
  }
}
