package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.kernellab.kernel.spi.SchedPolicy;
import org.junit.jupiter.api.Test;

/**
 * A boot task's parameters within the limits of 2.4 include/linux/sched.h and
 * kernel/sched.c {@code setscheduler()}: rt_priority 1..99 for SCHED_FIFO/RR and 0 for
 * SCHED_OTHER, nice -20..19, a non-empty cpus_allowed.
 */
class TaskSpecTests {

  private static final KernelPath USER = KernelPath.userProgram("u").compute(1).build();
  private static final KernelPath KERNEL = KernelPath.path("k.c", "k").compute(1).build();

  @Test
  void aUserTaskStartsAsSchedOtherNiceZeroOnCpuZeroAllowedEverywhere() {
    TaskSpec s = TaskSpec.user("u", USER);
    assertThat(s.policy()).isEqualTo(SchedPolicy.OTHER);
    assertThat(s.rtPriority()).isZero();
    assertThat(s.nice()).isZero();
    assertThat(s.cpu()).isZero();
    assertThat(s.cpusAllowed()).isEqualTo(-1L);
    assertThat(s.residentPages()).isZero();
    assertThat(s.isUser()).isTrue();
    assertThat(TaskSpec.kernelThread("k", KERNEL).isUser()).isFalse();
  }

  @Test
  void userTasksRunUserProgramsAndKernelThreadsKernelPaths() {
    assertThatIllegalArgumentException().isThrownBy(() -> TaskSpec.user("u", KERNEL));
    assertThatIllegalArgumentException().isThrownBy(() -> TaskSpec.kernelThread("k", USER));
  }

  @Test
  void eachWitherChangesOneParameterAndKeepsTheRest() {
    TaskSpec s = TaskSpec.user("u", USER).nice(5).onCpu(1).allowedOn(0b110).residentPages(2_400).fifo(50);
    assertThat(s.policy()).isEqualTo(SchedPolicy.FIFO);
    assertThat(s.rtPriority()).isEqualTo(50);
    assertThat(s.nice()).isEqualTo(5);
    assertThat(s.cpu()).isEqualTo(1);
    assertThat(s.cpusAllowed()).isEqualTo(0b110);
    assertThat(s.residentPages()).isEqualTo(2_400);
    TaskSpec rr = s.rr(7);
    assertThat(rr.policy()).isEqualTo(SchedPolicy.RR);
    assertThat(rr.rtPriority()).isEqualTo(7);
    assertThat(rr.nice()).isEqualTo(5);
    assertThat(rr.residentPages()).isEqualTo(2_400);
  }

  @Test
  void rtPriorityIsOneToNinetyNineForRealTimeAndZeroOtherwise() {
    TaskSpec u = TaskSpec.user("u", USER);
    assertThat(u.fifo(1).rtPriority()).isEqualTo(1);
    assertThat(u.rr(99).rtPriority()).isEqualTo(99);
    assertThatIllegalArgumentException().isThrownBy(() -> u.fifo(0));
    assertThatIllegalArgumentException().isThrownBy(() -> u.rr(100));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new TaskSpec("x", USER, SchedPolicy.OTHER, 1, 0, 0, -1L, 0))
        .withMessageContaining("0 for SCHED_OTHER");
  }

  @Test
  void niceIsMinusTwentyToNineteen() {
    TaskSpec u = TaskSpec.user("u", USER);
    assertThat(u.nice(-20).nice()).isEqualTo(-20);
    assertThat(u.nice(19).nice()).isEqualTo(19);
    assertThatIllegalArgumentException().isThrownBy(() -> u.nice(-21));
    assertThatIllegalArgumentException().isThrownBy(() -> u.nice(20));
  }

  @Test
  void affinityMustNameACpuAndResidentPagesCannotBeNegative() {
    TaskSpec u = TaskSpec.user("u", USER);
    assertThatIllegalArgumentException().isThrownBy(() -> u.allowedOn(0)).withMessageContaining("cpus_allowed");
    assertThatIllegalArgumentException().isThrownBy(() -> u.residentPages(-1));
    assertThat(u.residentPages(0).residentPages()).isZero();
  }

  @Test
  void aTaskStartsOnItsCpuIfAllowedThereElseOnTheLowestAllowedOne() {
    TaskSpec s = TaskSpec.user("u", USER).onCpu(2);
    assertThat(s.mayRunOnOrFirst(0b0100)).isEqualTo(2);
    assertThat(s.mayRunOnOrFirst(0b1010)).isEqualTo(1);
    assertThat(s.mayRunOnOrFirst(0b1000)).isEqualTo(3);
  }
}
