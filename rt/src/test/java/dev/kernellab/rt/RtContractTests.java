package dev.kernellab.rt;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.KernelPatchProvider;
import dev.kernellab.testkit.PatchContract;
import org.junit.jupiter.api.Test;

/**
 * rt passes what every patch must, on the stress load with every debug check on: with its
 * handlers in threads, the disk's completions and the RTC's ticks still reach the load, no lock
 * is left held, and one seed gives one trace. It hooks no site.
 */
class RtContractTests extends PatchContract {

  @Override
  protected KernelPatch patch() {
    return new RtPatch();
  }

  @Override
  protected boolean hooksSites() {
    return false;
  }

  @Test
  void itIsFoundByNameAndSaysWhatItRequiresAndExcludes() {
    assertThat(KernelPatchProvider.all()).anyMatch(p -> p.name().equals(RtPatch.NAME));
    KernelPatch rt = KernelPatchProvider.create(RtPatch.NAME);
    assertThat(rt.requires()).containsExactly("preempt");
    assertThat(rt.conflicts()).containsExactly("lowlat", "lockbreak", "voluntary");
  }
}
