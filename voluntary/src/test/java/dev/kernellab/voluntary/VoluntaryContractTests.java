package dev.kernellab.voluntary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.testkit.PatchContract;
import org.junit.jupiter.api.Test;

/**
 * Voluntary preemption passes what every patch must, on the stress load with every debug
 * check on. It hooks no site of the catalog's loops: its one hook is kernel-core's
 * might_sleep() site, which the catalog reaches at its user copies, forks, faults and down()s.
 */
class VoluntaryContractTests extends PatchContract {

  @Override
  protected KernelPatch patch() {
    return new VoluntaryPreemptPatch();
  }

  @Override
  protected boolean hooksSites() {
    return false;
  }

  @Test
  void itIsFoundByName() {
    assertThat(dev.kernellab.kernel.spi.KernelPatchProvider.all())
        .anyMatch(p -> p.name().equals(VoluntaryPreemptPatch.NAME));
  }
}
