package dev.kernellab.paths.arch;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.LatencyCause;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.CatalogEntry;
import java.util.List;
import java.util.Locale;

/**
 * Models arch/i386/kernel/apm.c (2.4.17): the {@code kapmd} thread, which wakes every
 * {@code APM_CHECK_TIMEOUT} and asks the BIOS for power-management events, each call made with
 * interrupts off. Optional: a machine with APM runs {@link #kapmd()} ({@code --apm} in the lab).
 *
 * <pre>{@code
 * b.task(catalog.apm().kapmd());   // kapmd, GET_EVENT once a second
 * }</pre>
 */
public final class Apm {

  /*
   * Implementation overview
   *
   * apm_mainloop sleeps with schedule_timeout(APM_CHECK_TIMEOUT = HZ), then apm_event_handler
   * -> check_events -> get_event -> apm_get_event -> apm_bios_call(APM_FUNC_GET_EVENT). The
   * call saves the flags and, unless apm_info.allow_ints (CONFIG_APM_ALLOW_INTS or the
   * "apm=allow_ints" boot option, off by default), does __cli() before the far call into the
   * BIOS, and restores the flags after: the whole BIOS routine runs with interrupts off. Its
   * length is the BIOS's, which the kernel cannot see and no source of the era measured per
   * call: BIOS_CALL_NS is an assumption. CONFIG_APM_CPU_IDLE's APM_FUNC_IDLE calls from the idle
   * loop are not modelled.
   */

  /** kapmd's main loop. */
  public static final Site APM_MAINLOOP = new Site("arch/i386/kernel/apm.c", "apm_mainloop", "apm_mainloop");

  /** APM_CHECK_TIMEOUT: HZ jiffies, 1 s (apm.c 2.4.17). */
  public static final long APM_CHECK_TIMEOUT_NS = 1_000_000_000L;

  /**
   * One APM_FUNC_GET_EVENT in the BIOS: an assumption, 500 us (BIOSes of laptops of the era
   * were reported to hold interrupts off "for a long time", apm.c's comment on
   * apm_bios_call_simple; no per-call figure was found).
   */
  public static final long BIOS_CALL_NS = 500_000;

  /** {@code apm_bios_call(APM_FUNC_GET_EVENT)}: interrupts off for the BIOS's time. */
  public final KernelPath biosCall;
  /** The {@code kapmd} thread's program. */
  public final KernelPath mainloop;

  /** Builds the paths for one kernel. */
  @Models(file = "arch/i386/kernel/apm.c", function = "apm_bios_call", version = "2.4.17")
  @Models(file = "arch/i386/kernel/apm.c", function = "apm_mainloop", version = "2.4.17")
  public Apm() {
    biosCall = KernelPath.path("arch/i386/kernel/apm.c", "apm_bios_call")
        .cause(new BiosCall("APM_FUNC_GET_EVENT"))
        .localIrqSave()
        .compute(BIOS_CALL_NS)
        .localIrqRestore()
        .build();
    mainloop = KernelPath.path("arch/i386/kernel/apm.c", "apm_mainloop")
        .loop(APM_MAINLOOP, Long.MAX_VALUE, b -> b.sleepFor(APM_CHECK_TIMEOUT_NS).call(biosCall))
        .build();
  }

  /** The {@code kapmd} kernel thread. */
  public TaskSpec kapmd() {
    return TaskSpec.kernelThread("kapmd", mainloop);
  }

  /**
   * An APM BIOS call as the cause of a latency: the BIOS ran with interrupts off.
   *
   * @param function the APM function called
   */
  public record BiosCall(String function) implements LatencyCause {
    @Override
    public String describe(LatencyCause.Hold h) {
      return String.format(Locale.ROOT, "APM BIOS call %s by %s with interrupts off, %.1f us (assumed BIOS time)",
          function, h.task(), h.ns() / 1000.0);
    }
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries() {
    return List.of(new CatalogEntry(
        "apm_bios_call (kapmd, --apm)", mainloop, List.of("irqs off (apm_info.allow_ints 0)"),
        BIOS_CALL_NS, BIOS_CALL_NS, "once a second, GET_EVENT: the BIOS's own time",
        "assumption: 500 us a BIOS call; APM_CHECK_TIMEOUT HZ (apm.c 2.4.17)"));
  }
}
