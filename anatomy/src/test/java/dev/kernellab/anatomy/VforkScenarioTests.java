package dev.kernellab.anatomy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.kernel.Fork;
import dev.kernellab.paths.kernel.Timer;
import dev.kernellab.workloads.Realfeel;
import org.junit.jupiter.api.Test;

/**
 * vfork as the worst case: realfeel at 2048 Hz on a vanilla 2.4.17 uniprocessor (goodness,
 * the catalog and its daemons), where do_fork's own work is not preemptible, and an 80 MB
 * process that vforks a child every tick. The child exits at once, as a vforked child whose
 * exec failed does (pexecute's {@code _exit} after execv), so that nothing but the vfork
 * holds the probe back: the anatomy names it in the load's terms, and its length is do_fork's
 * fixed part, whatever the parent's size (a fork of the same process holds the CPU 6 ms).
 */
class VforkScenarioTests {

  private static final long MS = 1_000_000;
  /** A big process: 80 MB resident in one vma. */
  private static final long BIG = 20_000;

  @Test
  void aVforkOfABigProcessIsNamedAsThatVforkAndCostsNoCopy() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    Realfeel realfeel = new Realfeel(paths, Realfeel.DEFAULT_HZ);
    KernelBuilder kb = new KernelBuilder(MachineSpec.uniprocessor(), 1)
        .scheduler(SchedulerProvider.create("goodness"));
    paths.install(kb);
    paths.installDaemons(kb);
    LatencyAnatomy anatomy = new LatencyAnatomy(realfeel.probe(), 4);
    kb.tracer(anatomy);
    kb.task(realfeel.task());
    KernelPath gcc = KernelPath.userProgram("gcc").syscall(paths.exit().sysExit).build();
    kb.task(TaskSpec.user("make", KernelPath.userProgram("make")
        .loop("targets", Long.MAX_VALUE, l -> l
            .syscall(Timer.sysNanosleep(MS))
            .syscall(paths.fork().sysVfork("gcc", gcc)))
        .build()).residentPages(BIG));
    realfeel.listen(anatomy);
    Kernel kernel = kb.build();
    realfeel.start(kernel);
    kernel.run(2_000 * MS);
    SampleAnatomy w = anatomy.worst().get(0);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.Declared.class, d -> {
      assertThat(d.cause()).isEqualTo(new Fork.DoVfork("gcc"));
      assertThat(d.task().comm()).isEqualTo("make");
    });
    assertThat(PreemptibleRealfeelRig.describe(w.culprit()))
        .matches("vfork for gcc: the mm shared, no page tables copied \\(on make\\[\\d+\\], \\d+\\.\\d us\\)");
    assertThat(w.latencyNs()).isLessThan(Fork.VFORK_FIXED_NS + 50_000);
  }
}
