package dev.kernellab.lab;

import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.KernelPatchProvider;
import dev.kernellab.kernel.spi.LatencyCause;
import dev.kernellab.kernel.spi.Patching;
import dev.kernellab.kernel.spi.Site;

/**
 * A plug-in patch of the tests, found by name as any patch is: it adds {@code kapmd}, a kernel
 * thread that every 50 ms calls into the APM BIOS for 5 ms (assumed lengths: a test's, not a
 * machine's), with interrupts on, and declares that call a cause of latency of its own type.
 */
public final class ApmBiosPatch implements KernelPatch {

  /** kapmd's event loop. */
  static final Site EVENTS = new Site("arch/i386/kernel/apm.c", "apm_mainloop", "events");

  /** The cause the patch adds: a BIOS call, by its APM function. */
  public record BiosCall(String function) implements LatencyCause {
    @Override
    public String describe(LatencyCause.Hold h) {
      return String.format(java.util.Locale.ROOT, "APM BIOS call %s by %s for %.1f us", function, h.task(), h.ns() / 1000.0);
    }
  }

  @Override
  public String name() {
    return "apm-test";
  }

  @Override
  public void apply(Patching kernel) {
    KernelPath call = KernelPath.path("arch/i386/kernel/apm.c", "apm_bios_call")
        .cause(new BiosCall("APM_GET_EVENT")).compute(5_000_000).build();
    kernel.task(TaskSpec.kernelThread("kapmd", KernelPath.path("arch/i386/kernel/apm.c", "apm_mainloop")
        .loop(EVENTS, Long.MAX_VALUE, l -> l.sleepFor(50_000_000).call(call)).build()));
  }

  /** Registers the patch under its name. */
  public static final class Provider implements KernelPatchProvider {
    @Override
    public String name() {
      return "apm-test";
    }

    @Override
    public String description() {
      return "a test's APM BIOS thread (5 ms calls every 50 ms)";
    }

    @Override
    public KernelPatch create() {
      return new ApmBiosPatch();
    }
  }
}
