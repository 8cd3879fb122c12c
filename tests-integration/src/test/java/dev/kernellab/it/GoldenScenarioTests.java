package dev.kernellab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.CostTable;
import dev.kernellab.it.GoldenScenarios.Config;
import dev.kernellab.it.GoldenScenarios.Scenario;
import dev.kernellab.kernel.StandaloneSchedulerHost;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.SchedulerProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The execution model against the answers of docs/golden-scenarios.md, to the nanosecond,
 * on every registered scheduler (the table says the answers are the same for both) and in the
 * four configurations; then with the default cost table, the ordering of the configurations
 * and the size of the difference.
 */
class GoldenScenarioTests {

  static List<String> schedulers() {
    List<String> names = new ArrayList<>();
    SchedulerProvider.all().forEach(p -> names.add(p.name()));
    return names;
  }

  static Stream<Arguments> everyCase() {
    List<Arguments> out = new ArrayList<>();
    for (String sched : schedulers()) {
      for (int i = 0; i < GoldenScenarios.all().size(); i++) {
        for (Config c : Config.values()) {
          out.add(Arguments.of(sched, i, c));
        }
      }
    }
    return out.stream();
  }

  static Stream<Arguments> everyScenario() {
    List<Arguments> out = new ArrayList<>();
    for (String sched : schedulers()) {
      for (int i = 0; i < GoldenScenarios.all().size(); i++) {
        out.add(Arguments.of(sched, i));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} S{1}+1 {2}")
  @MethodSource("everyCase")
  void zeroCostLatencyIsTheHandWorkedAnswer(String scheduler, int index, Config config) {
    Scenario s = GoldenScenarios.all().get(index);
    assertThat(ScenarioRunner.latency(scheduler, s, config, CostTable.zero()))
        .as("%s %s on %s", s, config, scheduler)
        .isEqualTo(s.expected(config));
  }

  /**
   * With the 2002 desktop's costs each latency exceeds the zero-cost answer by at most the
   * fixed costs on the path (interrupt entry and exit, the wake-up, the switch to P, P's
   * system-call exit, and the schedule() that picks P), and the configurations keep their
   * order.
   */
  @ParameterizedTest(name = "{0} S{1}+1")
  @MethodSource("everyScenario")
  void defaultCostsKeepTheOrderAndAddOnlyTheFixedCosts(String scheduler, int index) {
    CostTable costs = CostTable.pentium3At800MHz();
    var sched = SchedulerProvider.create(scheduler);
    // On a one-CPU host holding the scenario's tasks (ksoftirqd, P, B), so that its costs are
    // those of the switch to P: 2.4's goodness walk grows with the runnable tasks.
    StandaloneSchedulerHost host = new StandaloneSchedulerHost(sched, 1, 100);
    host.spawn(host.newTask(1, "ksoftirqd_CPU0", SchedPolicy.OTHER, 0, 19), 0);
    host.spawn(host.newTask(2, "P", SchedPolicy.FIFO, 99, 0), 0);
    host.spawn(host.newTask(3, "B", SchedPolicy.OTHER, 0, 0), 0);
    // The RTC's line 8 is on the slave 8259A: mask_and_ack_8259A makes 4 ISA accesses and
    // enable_8259A_irq 1 (arch/i386/kernel/i8259.c 2.4.17); P pays the refill after its switch.
    long fixed =
        costs.irqEntryNs() + 5 * costs.isaPortNs() + costs.irqExitNs() + sched.wakeUpCostNs()
            + sched.scheduleCostNs(0) + costs.contextSwitchNs() + costs.cacheRefillNs() + costs.syscallExitNs();
    Scenario s = GoldenScenarios.all().get(index);
    long[] measured = new long[Config.values().length];
    for (Config c : Config.values()) {
      measured[c.ordinal()] = ScenarioRunner.latency(scheduler, GoldenScenarios.all().get(index), c, costs);
      assertThat(measured[c.ordinal()])
          .as("%s %s on %s: zero-cost answer + fixed costs (%d ns)", s, c, scheduler, fixed)
          .isBetween(s.expected(c), s.expected(c) + fixed);
    }
    for (Config a : Config.values()) {
      for (Config b : Config.values()) {
        if (s.expected(a) < s.expected(b)) {
          assertThat(measured[a.ordinal()]).as("%s: %s before %s", s, a, b).isLessThan(measured[b.ordinal()]);
        }
      }
    }
  }
}
