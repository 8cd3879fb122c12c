package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.Operation;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.SchedPolicy;
import dev.kernellab.kernel.spi.Softirq;
import dev.kernellab.kernel.spi.TaskSpecView;
import dev.kernellab.kernel.spi.Patching;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.Tracer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a plug-in may use: an operation of its own, requires and conflicts, sites, tracers, sysctls. */
class PluginSeamTests {

  private static final Site WALK = new Site("fs/test.c", "walk", "walk");

  /** A patch named {@code name} that applies {@code body}. */
  private static KernelPatch patch(String name, List<String> requires, List<String> conflicts,
      java.util.function.Consumer<Patching> body) {
    return new KernelPatch() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public List<String> requires() {
        return requires;
      }

      @Override
      public List<String> conflicts() {
        return conflicts;
      }

      @Override
      public void apply(Patching kernel) {
        body.accept(kernel);
      }
    };
  }

  private static KernelBuilder up(KernelPath program) {
    return new KernelBuilder(MachineSpec.uniprocessor().withCosts(dev.kernellab.hw.CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler())
        .task(TaskSpec.user("B", program));
  }

  @Test
  void anOperationRunsItsPhasesWithTheCallsAndComputesItStarts() {
    SpinLock l = SpinLock.spin("test_lock");
    KernelPath lock = KernelPath.path("t.c", "lock").spinLock(l).build();
    KernelPath unlock = KernelPath.path("t.c", "unlock").spinUnlock(l).build();
    List<String> seen = new ArrayList<>();
    Operation op = new Operation() {
      @Override
      public int step(Step s, int phase) {
        seen.add(phase + "@" + s.cpu().now() + ":" + s.cpu().heldLockCount());
        switch (phase) {
          case 0 -> {
            s.call(lock);
            return 1;
          }
          case 1 -> {
            s.compute(5_000);
            return 2;
          }
          case 2 -> {
            s.call(unlock);
            return 3;
          }
          default -> {
            return DONE;
          }
        }
      }

      @Override
      public String describe() {
        return "hold(&test_lock) for 5 us";
      }
    };
    KernelPath body = KernelPath.path("t.c", "sys_test").op(op).compute(1_000).build();
    KernelPath program = KernelPath.userProgram("B").syscall(body)
        .loop("spin", Long.MAX_VALUE, x -> x.compute(1_000_000)).build();
    Kernel k = up(program).build();
    k.run(1_000_000);
    // phase 0 at boot; the lock taken, then 5 us of compute with it held, then the unlock
    assertThat(seen).containsExactly("0@0:0", "1@0:1", "2@5000:1", "3@5000:0");
    assertThat(l.acquisitions()).isEqualTo(1);
    assertThat(l.maxHoldNs()).isEqualTo(5_000);
    assertThat(body.listing()).anyMatch(line -> line.contains("hold(&test_lock) for 5 us"));
  }

  @Test
  void anOperationStepMayStartOneThingOnly() {
    KernelPath nothing = KernelPath.path("t.c", "nothing").compute(1).build();
    Operation twice = new Operation() {
      @Override
      public int step(Step s, int phase) {
        s.call(nothing);
        s.compute(10);
        return DONE;
      }

      @Override
      public String describe() {
        return "two things";
      }
    };
    KernelPath program = KernelPath.userProgram("B").syscall(KernelPath.path("t.c", "sys").op(twice).build()).build();
    assertThatThrownBy(() -> up(program).build().run(1_000_000))
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("may start one thing");
  }

  /** A path view the kernel did not build: what a plug-in might hand over by mistake. */
  private static final PathView FOREIGN = (PathView) java.lang.reflect.Proxy.newProxyInstance(
      PathView.class.getClassLoader(), new Class<?>[] {PathView.class}, (proxy, m, args) -> {
        switch (m.getName()) {
          case "file" -> {
            return "fs/foreign.c";
          }
          case "function" -> {
            return "foreign";
          }
          case "isUser" -> {
            return false;
          }
          case "toString" -> {
            return "foreign";
          }
          default -> throw new UnsupportedOperationException(m.getName());
        }
      });

  @Test
  void whatAPatchHandsOverIsRefusedIfTheKernelDidNotBuildIt() {
    KernelPath walk = KernelPath.path("fs/test.c", "walk").loop(WALK, 2, x -> x.compute(1_000)).build();
    KernelPath program = KernelPath.userProgram("B").syscall(walk).build();
    assertThatThrownBy(() -> up(program).patch(patch("alien", List.of(), List.of(), k -> k.hookSite(WALK, FOREIGN)))
        .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("patch alien hooks fs/test.c:walk with a path not built with KernelPath");
    TaskSpecView task = new TaskSpecView() {
      @Override
      public String comm() {
        return "kalien";
      }

      @Override
      public PathView program() {
        return FOREIGN;
      }

      @Override
      public SchedPolicy policy() {
        return SchedPolicy.OTHER;
      }

      @Override
      public boolean isUser() {
        return false;
      }
    };
    assertThatThrownBy(() -> up(program).patch(patch("alien", List.of(), List.of(), k -> k.task(task))).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("patch alien adds task kalien not made with TaskSpec");
    Operation callsForeign = new Operation() {
      @Override
      public int step(Step s, int phase) {
        s.call(FOREIGN);
        return DONE;
      }

      @Override
      public String describe() {
        return "calls a foreign path";
      }
    };
    KernelPath calling = KernelPath.userProgram("B").syscall(KernelPath.path("t.c", "sys").op(callsForeign).build()).build();
    assertThatThrownBy(() -> up(calling).build().run(1_000_000))
        .isInstanceOf(KernelBug.class)
        .hasMessageContaining("an operation calls kernel paths built with KernelPath");
  }

  @Test
  void anOperationSeesTheKernelAndMayRaiseASoftirq() {
    long[] jiffies = {-1};
    Operation raise = new Operation() {
      @Override
      public int step(Step s, int phase) {
        jiffies[0] = s.kernel().jiffies();
        s.raiseSoftirq(Softirq.TASKLET);
        return DONE;
      }

      @Override
      public String describe() {
        return "tasklet_schedule()";
      }
    };
    long[] ran = {0};
    long[] after = {-2};
    KernelPath program = KernelPath.userProgram("B").syscall(KernelPath.path("t.c", "sys").op(raise)
            .effect("read jiffies", c -> after[0] = c.kernel().jiffies()).build())
        .loop("spin", Long.MAX_VALUE, x -> x.compute(1_000_000)).build();
    KernelBuilder b = up(program).openSoftirq(Softirq.TASKLET,
        KernelPath.path("kernel/softirq.c", "tasklet_action").effect("count", c -> ran[0]++).build());
    b.build().run(30_000_000);
    assertThat(jiffies[0]).as("the kernel's jiffies, read in the same instant").isEqualTo(after[0]);
    assertThat(ran[0]).as("the raised softirq runs at the next do_softirq").isEqualTo(1);
  }

  @Test
  void theBuilderRefusesAPatchWithoutWhatItRequiresOrWithWhatItConflictsWith() {
    KernelPath idle = KernelPath.userProgram("B").loop("spin", Long.MAX_VALUE, x -> x.compute(1_000)).build();
    KernelPatch base = patch("base", List.of(), List.of(), k -> { });
    KernelPatch needsBase = patch("needs-base", List.of("base"), List.of(), k -> { });
    KernelPatch hatesBase = patch("hates-base", List.of(), List.of("base"), k -> { });
    assertThatThrownBy(() -> up(idle).patch(needsBase).build())
        .hasMessage("patch needs-base requires base: apply both (base+needs-base)");
    assertThatThrownBy(() -> up(idle).patch(base).patch(hatesBase).build())
        .hasMessage("patch hates-base conflicts with base: a kernel has one or the other");
    assertThat(up(idle).patch(base).patch(needsBase).build()).isNotNull();
  }

  @Test
  void aHookAtASiteNoDeclaredPathHasIsRefusedAndADeclaredOneRuns() {
    long[] visits = {0};
    KernelPath walk = KernelPath.path("fs/test.c", "walk")
        .loop(WALK, 10, x -> x.compute(1_000))
        .build();
    KernelPath hook = KernelPath.path("fs/test.c", "walk/hook").effect("count", c -> visits[0]++).build();
    KernelPath program = KernelPath.userProgram("B").syscall(walk)
        .loop("spin", Long.MAX_VALUE, x -> x.compute(1_000_000)).build();
    Site typo = new Site("fs/test.c", "wlak", "wlak");
    assertThatThrownBy(() -> up(program).declareSites(walk.sites())
        .patch(patch("typo", List.of(), List.of(), k -> k.hookSite(typo, hook))).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("patch typo hooks fs/test.c:wlak, a site no path of this kernel has");
    Kernel k = up(program).declareSites(walk.sites())
        .patch(patch("counter", List.of(), List.of(), p -> p.hookSite(WALK, hook))).build();
    k.run(1_000_000);
    assertThat(visits[0]).as("between the 10 iterations").isEqualTo(9);
    assertThatThrownBy(() -> KernelPath.path("fs/other.c", "walk").loop(WALK, 1, x -> x.compute(1)))
        .hasMessage("site fs/test.c:walk is not in fs/other.c:walk");
  }

  @Test
  void tracersAttachedOneAfterTheOtherBothSeeEveryEventInOrder() {
    List<String> events = new ArrayList<>();
    Tracer first = new Tracer() {
      @Override
      public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
        events.add("first " + next.comm());
      }
    };
    Tracer second = new Tracer() {
      @Override
      public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
        events.add("second " + next.comm());
      }
    };
    KernelPath idle = KernelPath.userProgram("B").loop("spin", Long.MAX_VALUE, x -> x.compute(1_000)).build();
    up(idle).tracer(first).tracer(second).build().run(1_000_000);
    assertThat(events).isNotEmpty();
    assertThat(events.get(0)).startsWith("first ");
    assertThat(events.get(1)).isEqualTo("second " + events.get(0).substring("first ".length()));
    assertThat(events.stream().filter(e -> e.startsWith("first ")).count())
        .isEqualTo(events.stream().filter(e -> e.startsWith("second ")).count());
  }

  @Test
  void aKernelFindsTheSysctlsItsPatchesRegistered() {
    KernelPath idle = KernelPath.userProgram("B").loop("spin", Long.MAX_VALUE, x -> x.compute(1_000)).build();
    Kernel k = up(idle).patch(patch("switch", List.of(), List.of(), p -> p.sysctl("kernel/test_switch", true))).build();
    assertThat(k.sysctl("kernel/test_switch")).hasValueSatisfying(s -> assertThat(s.get()).isTrue());
    assertThat(k.sysctl("kernel/none")).isEmpty();
  }
}
