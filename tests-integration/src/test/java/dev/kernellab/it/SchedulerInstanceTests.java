package dev.kernellab.it;

import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.StandaloneSchedulerHost;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.SchedulerProvider;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A scheduler's runqueues are one kernel's state: an instance given to a second kernel (or to a
 * kernel and a standalone host) is refused when the second one boots, instead of two kernels
 * sharing runqueues and one of them quietly never switching.
 */
class SchedulerInstanceTests {

  @ParameterizedTest
  @ValueSource(strings = {"o1", "goodness"})
  void oneSchedulerInstanceSchedulesOneKernel(String name) {
    Scheduler s = SchedulerProvider.create(name);
    new KernelBuilder(MachineSpec.uniprocessor(), 1).scheduler(s).build();
    KernelBuilder second = new KernelBuilder(MachineSpec.uniprocessor(), 2).scheduler(s);
    assertThatIllegalStateException().isThrownBy(second::build)
        .withMessageContaining("already schedules a kernel: give each kernel its own instance");
    assertThatIllegalStateException().isThrownBy(() -> new StandaloneSchedulerHost(s, 1, 100))
        .withMessageContaining("give each kernel its own instance");
  }
}
