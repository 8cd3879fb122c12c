package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.spi.TaskState;
import org.junit.jupiter.api.Test;

/**
 * The ring an oops prints (in the spirit of ftrace_dump_on_oops): the last
 * {@value RecentEvents#SIZE} events, oldest first, each as one line naming what happened.
 */
class RecentEventsTests {

  private static String dump(RecentEvents r) {
    StringBuilder sb = new StringBuilder();
    r.appendTo(sb, "  ");
    return sb.toString();
  }

  @Test
  void everyKindOfEventPrintsAsTheTracepointItStandsFor() {
    RecentEvents r = new RecentEvents();
    Task a = TestTasks.other(1);
    Task b = TestTasks.other(2);
    a.setState(TaskState.INTERRUPTIBLE);
    b.setCpu(1);
    KernelPath p = KernelPath.path("fs/dcache.c", "prune_dcache").compute(1).build();
    SpinLock l = SpinLock.spin("dcache_lock");
    r.schedSwitch(1, 0, a, b);
    r.schedWakeup(2, 0, b);
    r.irqEntry(3, 0, 0x71);
    r.irqExit(4, 0, 0x71);
    r.softirqEntry(5, 0, 6);
    r.softirqExit(6, 0);
    r.preemptOff(7, 0, p);
    r.preemptOn(8, 0, p, 40);
    r.irqsOff(9, 1, p);
    r.irqsOn(10, 1, p, 50);
    r.lockAcquire(11, 0, l, p, 0);
    r.lockAcquire(12, 1, l, p, 70);
    r.lockContend(13, 1, l, p);
    r.lockRelease(14, 0, l, p, 80);
    r.pathEnter(15, 0, p);
    r.pathExit(16, 0, p);
    String[] lines = dump(r).split("\n");
    assertThat(lines).hasSize(16);
    assertThat(lines[0]).isEqualTo("                1 cpu0  sched_switch " + a + " [INTERRUPTIBLE] -> " + b);
    assertThat(lines[1]).endsWith("sched_wakeup " + b + " (last ran on cpu1)");
    assertThat(lines[2]).endsWith("irq_entry vector 0x71");
    assertThat(lines[3]).endsWith("irq_exit vector 0x71");
    assertThat(lines[4]).endsWith("softirq_entry pending 0x6");
    assertThat(lines[5]).endsWith("softirq_exit");
    assertThat(lines[6]).endsWith("preempt_off in " + p);
    assertThat(lines[7]).endsWith("preempt_on in " + p + " after 40 ns");
    assertThat(lines[8]).isEqualTo("                9 cpu1  irqs_off in " + p);
    assertThat(lines[9]).endsWith("irqs_on in " + p + " after 50 ns");
    assertThat(lines[10]).endsWith("lock_acquire dcache_lock in " + p);
    assertThat(lines[11]).endsWith("lock_acquire dcache_lock in " + p + " after spinning 70 ns");
    assertThat(lines[12]).endsWith("lock_contended dcache_lock in " + p);
    assertThat(lines[13]).endsWith("lock_release dcache_lock in " + p + " held 80 ns");
    assertThat(lines[14]).endsWith("enter " + p);
    assertThat(lines[15]).isEqualTo("               16 cpu0  exit " + p);
  }

  @Test
  void theRingKeepsTheNewestEventsOldestFirst() {
    RecentEvents r = new RecentEvents();
    for (int i = 0; i < RecentEvents.SIZE + 5; i++) {
      r.irqEntry(i, 0, 0x31);
    }
    String[] lines = dump(r).split("\n");
    assertThat(lines).hasSize(RecentEvents.SIZE);
    assertThat(lines[0]).startsWith("                5 cpu0");
    assertThat(lines[RecentEvents.SIZE - 1]).startsWith(String.format(java.util.Locale.ROOT, "  %15d cpu0", RecentEvents.SIZE + 4));
  }

  @Test
  void anEmptyRingPrintsNothing() {
    assertThat(dump(new RecentEvents())).isEmpty();
  }
}
