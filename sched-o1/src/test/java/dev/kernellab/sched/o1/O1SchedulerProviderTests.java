package dev.kernellab.sched.o1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.spi.SchedulerProvider;
import org.junit.jupiter.api.Test;

/** The scheduler is found by name through ServiceLoader. */
class O1SchedulerProviderTests {

  @Test
  void o1IsRegisteredByName() {
    assertThat(SchedulerProvider.all()).extracting(SchedulerProvider::name).contains("o1");
    assertThat(SchedulerProvider.create("o1")).isInstanceOf(O1Scheduler.class);
    assertThat(SchedulerProvider.create("o1").name()).isEqualTo("o1");
  }
}
