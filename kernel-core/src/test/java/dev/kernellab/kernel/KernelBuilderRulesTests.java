package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.hw.CostTable;
import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.KernelPatchProvider;
import dev.kernellab.kernel.spi.Patching;
import dev.kernellab.kernel.spi.PreemptionModel;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.Sysctl;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the builder refuses and what a patch may do while the kernel is built: request_irq's
 * line range and unshared lines (arch/i386/kernel/irq.c 2.4.17, without SA_SHIRQ), HZ within
 * what the PIT's 16-bit LATCH can divide (include/linux/timex.h), one attachment per type,
 * required and conflicting patches, site hooks run in the order the patches were applied, a
 * patch's boot tasks held to the rules of the builder's own, and the configuration syntax
 * ({@code vanilla} or patch names joined by {@code +}).
 */
class KernelBuilderRulesTests {

  private static final long MS = 1_000_000;

  private static KernelBuilder up() {
    return new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()), 1)
        .scheduler(new SimpleRoundRobinScheduler());
  }

  private static KernelPath nop(String fn) {
    return KernelPath.path("drivers/test.c", fn).build();
  }

  private static KernelPatch patch(String name, List<String> requires, List<String> conflicts,
      java.util.function.Consumer<Patching> apply) {
    return new KernelPatch() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public void apply(Patching k) {
        apply.accept(k);
      }

      @Override
      public List<String> requires() {
        return requires;
      }

      @Override
      public List<String> conflicts() {
        return conflicts;
      }
    };
  }

  /**
   * KernelPatch.name()'s rule: a lower-case letter, then lower-case letters, digits, '_' or
   * '-'. Every patch this project ships or tests passes ({@code preempt}, {@code lowlat},
   * {@code lockbreak}, {@code ll-preempt}, {@code test-hook-prune_dcache}); a '+' (the
   * configuration separator), a '/' (the sysctl's), a blank, an upper-case or leading
   * digit or dash does not, refused when the builder takes the patch.
   */
  @Test
  void aPatchNameIsALowerCaseLetterThenLettersDigitsUnderscoresOrDashes() {
    for (String ok : List.of("preempt", "lowlat", "lockbreak", "ll-preempt", "test-hook-prune_dcache", "p", "x2")) {
      KernelBuilder b = up();
      b.patch(patch(ok, List.of(), List.of(), k -> {}));
      assertThat(b.patchNames()).as(ok).containsExactly(ok);
    }
    for (String bad : List.of("", "Preempt", "preempt+lowlat", "kernel/lowlat", "my lat", "2fast", "-x", "_x", "lowlat.2")) {
      assertThatIllegalArgumentException().as("'%s'", bad)
          .isThrownBy(() -> up().patch(patch(bad, List.of(), List.of(), k -> {})))
          .withMessage("patch name '" + bad + "': a patch name is a lower-case letter, then lower-case letters,"
              + " digits, '_' or '-'");
    }
    assertThatIllegalArgumentException()
        .isThrownBy(() -> up().patch(patch(null, List.of(), List.of(), k -> {})))
        .withMessage("patch name null: a patch name is a lower-case letter, then lower-case letters, digits, '_' or '-'");
  }

  @Test
  void requestIrqTakesLines0To23EachOnce() {
    KernelBuilder b = up();
    assertThatIllegalArgumentException().isThrownBy(() -> b.requestIrq(-1, "x", nop("x"), true))
        .withMessage("request_irq: no IRQ line -1");
    assertThatIllegalArgumentException().isThrownBy(() -> b.requestIrq(24, "x", nop("x"), true))
        .withMessage("request_irq: no IRQ line 24");
    assertThat(b.requestIrq(23, "last", nop("last"), true)).isSameAs(b);
    assertThat(b.requestIrq(0 + 8, "rtc", nop("rtc"), true)).isSameAs(b);
    assertThatIllegalArgumentException().isThrownBy(() -> b.requestIrq(8, "again", nop("again"), false))
        .withMessage("request_irq: IRQ 8 already has a handler (rtc); shared lines are not modelled");
  }

  @Test
  void hzMustLeaveTheLatchInSixteenBits() {
    assertThatIllegalArgumentException().isThrownBy(() -> up().hz(18))
        .withMessage("HZ must be 19..10000 (the PIT divisor is 16 bits), got 18");
    assertThatIllegalArgumentException().isThrownBy(() -> up().hz(10_001))
        .withMessage("HZ must be 19..10000 (the PIT divisor is 16 bits), got 10001");
    assertThat(KernelBuilder.checkHz(19)).isEqualTo(19);
    assertThatIllegalArgumentException().isThrownBy(() -> KernelBuilder.checkHz(0))
        .withMessage("HZ must be 19..10000 (the PIT divisor is 16 bits), got 0");
    assertThat(up().hz(19).build().hz()).isEqualTo(19);
    assertThat(up().hz(10_000).build().hz()).isEqualTo(10_000);
    // LATCH = (1193180 + HZ/2) / HZ: 11932 at HZ 100, 65957 would not fit 16 bits at HZ 18
    assertThat(Kernel.latch(100)).isEqualTo(11_932);
    assertThat(Kernel.latch(19)).isEqualTo(62_799);
  }

  @Test
  void aBuilderBuildsOneKernelAndRefusesTasksOnCpusItLacks() {
    KernelBuilder b = up();
    b.build();
    assertThatIllegalStateException().isThrownBy(b::build).withMessage("this builder already built a kernel");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> up().task(TaskSpec.user("x", RtcProbeRig.userHog()).onCpu(1)).build())
        .withMessage("x: no cpu1 on a 1-CPU machine");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> up().task(TaskSpec.user("y", RtcProbeRig.userHog()).onCpu(-1)).build())
        .withMessage("y: no cpu-1 on a 1-CPU machine");
  }

  @Test
  void ksoftirqdThreadsExistOnePerCpuUnlessTurnedOff() {
    Kernel with = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()).withCpus(2), 1)
        .scheduler(new SimpleRoundRobinScheduler()).build();
    assertThat(with.allTasks()).extracting(Task::comm).containsExactly("ksoftirqd_CPU0", "ksoftirqd_CPU1");
    assertThat(with.allTasks()).extracting(Task::cpusAllowed).containsExactly(1L, 2L);
    assertThat(with.allTasks()).extracting(Task::nice).containsExactly(19, 19);
    assertThat(up().ksoftirqd(false).build().allTasks()).isEmpty();
  }

  @Test
  void oneAttachmentPerTypeAndPatchesFindIt() {
    KernelBuilder b = up();
    assertThat(b.attach(String.class, "catalog")).isSameAs(b);
    assertThatIllegalStateException().isThrownBy(() -> b.attach(String.class, "another"))
        .withMessage("a String is already attached");
    List<Object> found = new ArrayList<>();
    b.patch(patch("p", List.of(), List.of(), k -> {
      found.add(k.attachment(String.class).orElseThrow());
      found.add(k.attachment(Integer.class).isPresent());
      found.add(k.machine().cpus());
    }));
    assertThat(b.patchNames()).containsExactly("p");
    b.build();
    assertThat(found).containsExactly("catalog", false, 1);
  }

  @Test
  void aPatchNeedsWhatItRequiresAndRefusesWhatItConflictsWith() {
    KernelPatch base = patch("preempt", List.of(), List.of(), k -> {});
    KernelPatch needs = patch("ll-preempt", List.of("preempt"), List.of(), k -> {});
    KernelPatch rival = patch("lowlat", List.of(), List.of("preempt"), k -> {});
    assertThatIllegalArgumentException().isThrownBy(() -> up().patch(needs).build())
        .withMessage("patch ll-preempt requires preempt: apply both (preempt+ll-preempt)");
    assertThatIllegalArgumentException().isThrownBy(() -> up().patch(base).patch(rival).build())
        .withMessage("patch lowlat conflicts with preempt: a kernel has one or the other");
    KernelBuilder ok = up().patch(base).patch(needs);
    assertThat(ok.patchNames()).containsExactly("preempt", "ll-preempt");
    ok.build();
  }

  /**
   * Two patches hooking one site both run between the loop's iterations, in the order applied;
   * a hook of a site the kernel does not declare is refused; a sysctl is registered once.
   */
  @Test
  void hooksOfOneSiteRunInTheOrderThePatchesWereApplied() {
    Site site = new Site("fs/test.c", "walk", "w");
    List<String> ran = new ArrayList<>();
    KernelPatch first = patch("first", List.of(), List.of(), k -> k.hookSite(site,
        KernelPath.path("fs/test.c", "first").effect("first", c -> ran.add("first" + c.loopIndex())).build()));
    KernelPatch second = patch("second", List.of(), List.of(), k -> {
      k.hookSite(site, KernelPath.path("fs/test.c", "second").effect("second", c -> ran.add("second")).build());
      Sysctl s = k.sysctl("kernel/second", true);
      assertThat(s.get()).isTrue();
      assertThatIllegalStateException().isThrownBy(() -> k.sysctl("kernel/second", false))
          .withMessage("sysctl kernel/second registered twice");
      k.task(TaskSpec.kernelThread("kpatchd", KernelPath.path("kernel/patch.c", "kpatchd").compute(MS).build()));
    });
    KernelPath walk = KernelPath.path("fs/test.c", "walk").loop(site, 3, b -> b.compute(MS)).build();
    Kernel k = up().ksoftirqd(false).declareSites(walk.sites()).patch(first).patch(second)
        .task(TaskSpec.user("B", RtcProbeRig.busyTask(walk)))
        .build();
    k.run(5 * MS);
    assertThat(ran).containsExactly("first1", "second", "first2", "second");
    assertThat(k.hookAt(site)).isPresent();
    assertThat(k.hookAt(new Site("fs/test.c", "walk", "other"))).isEmpty();
    assertThat(k.sysctl("kernel/second")).isPresent();
    assertThat(k.sysctl("kernel/none")).isEmpty();
    assertThat(k.allTasks()).extracting(Task::comm).contains("kpatchd");

    KernelPatch stray = patch("stray", List.of(), List.of(), x -> x.hookSite(
        new Site("fs/test.c", "walk", "typo"), nop("hook")));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> up().declareSites(walk.sites()).patch(stray).build())
        .withMessage("patch stray hooks fs/test.c:walk#typo, a site no path of this kernel has"
            + " (declared: 1 sites, e.g. fs/test.c:walk#w)");
  }

  @TempDir Path services;

  /** A patch that adds one boot task, {@code spec}. */
  private static KernelPatch adding(String name, TaskSpec spec) {
    return patch(name, List.of(), List.of(), k -> k.task(spec));
  }

  private static TaskSpec thread(String comm) {
    return TaskSpec.kernelThread(comm, KernelPath.path("kernel/patch.c", comm).compute(MS).build());
  }

  @Test
  void aPatchsTaskOnACpuTheMachineLacksIsRefusedNamingThePatch() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> up().patch(adding("kfoo", thread("kfood").onCpu(1))).build())
        .withMessage("patch kfoo: kfood: no cpu1 on a 1-CPU machine");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> up().patch(adding("kfoo", thread("kfood").onCpu(-1))).build())
        .withMessage("patch kfoo: kfood: no cpu-1 on a 1-CPU machine");
    Kernel two = new KernelBuilder(MachineSpec.uniprocessor().withCosts(CostTable.zero()).withCpus(2), 1)
        .scheduler(new SimpleRoundRobinScheduler()).patch(adding("kfoo", thread("kfood").onCpu(1))).build();
    assertThat(two.task("kfood")).get().extracting(Task::cpu).isEqualTo(1);
  }

  @Test
  void aPatchsTaskWithABootTasksNameIsRefusedNamingThePatch() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> up().task(TaskSpec.user("B", RtcProbeRig.userHog())).patch(adding("kfoo", thread("B"))).build())
        .withMessage("patch kfoo: two boot tasks named B (the kernel's own threads included): give each its own name");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> up().patch(adding("kfoo", thread("ksoftirqd_CPU0"))).build())
        .withMessage("patch kfoo: two boot tasks named ksoftirqd_CPU0 (the kernel's own threads included):"
            + " give each its own name");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> up().patch(adding("kfoo", thread("kd"))).patch(adding("kbar", thread("kd"))).build())
        .withMessage("patch kbar: two boot tasks named kd (the kernel's own threads included): give each its own name");
    // The builder's own tasks are checked before any patch runs, with the messages they always had.
    assertThatIllegalArgumentException()
        .isThrownBy(() -> up().task(TaskSpec.user("B", RtcProbeRig.userHog())).task(TaskSpec.user("B", RtcProbeRig.userHog()))
            .patch(adding("kfoo", thread("kfood").onCpu(3))).build())
        .withMessage("two boot tasks named B (the kernel's own threads included): give each its own name");
  }

  @Test
  void aPatchsTasksStartAfterTheBuildersInTheOrderThePatchesWereApplied() {
    Kernel k = up().ksoftirqd(false).patch(adding("kfoo", thread("kfood"))).task(TaskSpec.user("B", RtcProbeRig.userHog()))
        .patch(adding("kbar", thread("kbard"))).build();
    assertThat(k.allTasks()).extracting(Task::comm).containsExactly("B", "kfood", "kbard");
  }

  @Test
  void aPatchChangesTheKernelOnlyWhileItIsApplied() {
    List<Patching> kept = new ArrayList<>();
    Kernel k = up().ksoftirqd(false).patch(patch("late", List.of(), List.of(), kept::add)).build();
    Patching late = kept.get(0);
    String refused = "patch late changed the kernel after it was applied: a patch changes the kernel only while apply() runs";
    assertThatIllegalStateException().isThrownBy(() -> late.task(thread("klate"))).withMessage(refused);
    assertThatIllegalStateException().isThrownBy(() -> late.sysctl("kernel/late", true)).withMessage(refused);
    assertThatIllegalStateException().isThrownBy(() -> late.hookSite(new Site("fs/test.c", "walk", "w"), nop("hook")))
        .withMessage(refused);
    assertThatIllegalStateException().isThrownBy(() -> late.preemptionModel(PreemptionModel.VANILLA)).withMessage(refused);
    assertThat(late.machine().cpus()).isEqualTo(1);
    assertThat(k.allTasks()).isEmpty();
    assertThat(k.sysctl("kernel/late")).isEmpty();
  }

  /** A registered patch of these tests, {@code alpha}. */
  public static final class Alpha implements KernelPatchProvider {
    @Override
    public String name() {
      return "alpha";
    }

    @Override
    public String description() {
      return "a test's patch that changes nothing";
    }

    @Override
    public KernelPatch create() {
      return patch("alpha", List.of(), List.of(), k -> {});
    }
  }

  /** A registered patch of these tests, {@code beta}. */
  public static final class Beta implements KernelPatchProvider {
    @Override
    public String name() {
      return "beta";
    }

    @Override
    public String description() {
      return "another";
    }

    @Override
    public KernelPatch create() {
      return patch("beta", List.of(), List.of(), k -> {});
    }
  }

  /** A registered patch of these tests, {@code gamma}, which requires {@code alpha}. */
  public static final class Gamma implements KernelPatchProvider {
    @Override
    public String name() {
      return "gamma";
    }

    @Override
    public String description() {
      return "a test's patch that needs alpha";
    }

    @Override
    public KernelPatch create() {
      return patch("gamma", List.of("alpha"), List.of(), k -> {});
    }
  }

  @Test
  void aConfigurationBringsWhatItsPatchesRequireJustBeforeThem() {
    ServiceRegistrations patches =
        ServiceRegistrations.in(services).register(KernelPatchProvider.class, Alpha.class, Beta.class, Gamma.class);
    assertThat(patches.run(() -> KernelBuilder.configurationPatches("gamma"))).as("what it names").containsExactly("gamma");
    assertThat(patches.run(() -> up().configuration("gamma").patchNames())).containsExactly("alpha", "gamma");
    assertThat(patches.run(() -> up().configuration("beta+gamma").patchNames())).containsExactly("beta", "alpha", "gamma");
    assertThat(patches.run(() -> up().configuration("gamma+alpha").patchNames()))
        .as("named, a requirement keeps its place").containsExactly("gamma", "alpha");
  }

  @Test
  void aConfigurationIsVanillaOrRegisteredPatchNamesJoinedByPlus() {
    ServiceRegistrations patches = ServiceRegistrations.in(services).register(KernelPatchProvider.class, Beta.class, Alpha.class);
    assertThat(KernelBuilder.configurationPatches("vanilla")).isEmpty();
    assertThat(patches.run(() -> KernelBuilder.configurationPatches("beta+alpha"))).containsExactly("beta", "alpha");
    assertThat(patches.run(() -> up().configuration("alpha+beta").patchNames())).containsExactly("alpha", "beta");
    assertThat(patches.run(() -> up().configuration("vanilla").patchNames())).isEmpty();
    String[][] refused = {
      {"", "empty kernel configuration: vanilla, or patch names joined by '+' (preempt+lowlat)"},
      {" ", "empty kernel configuration: vanilla, or patch names joined by '+' (preempt+lowlat)"},
      {"alpha+gamma", "configuration 'alpha+gamma': unknown patch 'gamma'; known: alpha, beta; or vanilla for none"},
      {"alpha+alpha", "configuration 'alpha+alpha': patch 'alpha' twice"},
      {"alpha+", "configuration 'alpha+': patch name '': a patch name is a lower-case letter, then lower-case"
          + " letters, digits, '_' or '-'"},
      {"alpha,beta", "configuration 'alpha,beta': patch name 'alpha,beta': a patch name is a lower-case letter,"
          + " then lower-case letters, digits, '_' or '-'"},
      {"vanilla+alpha", "configuration 'vanilla+alpha': vanilla is the kernel without patches, not a patch to"
          + " join with '+'"},
    };
    for (String[] r : refused) {
      assertThatIllegalArgumentException().as("'%s'", r[0])
          .isThrownBy(() -> patches.run(() -> KernelBuilder.configurationPatches(r[0]))).withMessage(r[1]);
    }
    assertThatIllegalArgumentException().isThrownBy(() -> KernelBuilder.configurationPatches(null))
        .withMessage("empty kernel configuration: vanilla, or patch names joined by '+' (preempt+lowlat)");
    assertThatIllegalArgumentException().isThrownBy(() -> KernelBuilder.configurationPatches("alpha"))
        .withMessage("configuration 'alpha': unknown patch 'alpha'; known: none on the class path; or vanilla for none");
  }

  @Test
  void thePatchNameRuleIsOneCheckForBuilderAndConfiguration() {
    assertThat(KernelBuilder.checkPatchName("ll-preempt")).isEqualTo("ll-preempt");
    assertThatIllegalArgumentException().isThrownBy(() -> KernelBuilder.checkPatchName("Preempt"))
        .withMessage("patch name 'Preempt': a patch name is a lower-case letter, then lower-case letters, digits, '_' or '-'");
  }
}
