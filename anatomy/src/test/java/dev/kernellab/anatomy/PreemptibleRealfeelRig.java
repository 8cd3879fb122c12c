package dev.kernellab.anatomy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.preempt.PreemptKernelPatch;
import dev.kernellab.rt.RtPatch;
import dev.kernellab.workloads.Realfeel;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The machine of the latency-source scenarios: realfeel at 2048 Hz on one CPU running 2.4.17's
 * goodness scheduler with the preempt patch, the catalog and its daemons installed, so that
 * nothing but the source a scenario adds holds the probe back for long.
 */
final class PreemptibleRealfeelRig {

  private PreemptibleRealfeelRig() {}

  /**
   * The worst sample: {@code tasks} adds the load's tasks to the builder, {@code before} arms the
   * booted kernel, which then runs for {@code runNs}.
   */
  static SampleAnatomy worst(Kernel24Paths paths, BiConsumer<Kernel24Paths, KernelBuilder> tasks,
      Consumer<Kernel> before, long runNs) {
    return worst(paths, tasks, before, runNs, false);
  }

  /**
   * {@link #worst(Kernel24Paths, BiConsumer, Consumer, long)}, with every device interrupt's
   * handler in a thread of its own if {@code threaded} (the rt patch applied).
   */
  static SampleAnatomy worst(Kernel24Paths paths, BiConsumer<Kernel24Paths, KernelBuilder> tasks,
      Consumer<Kernel> before, long runNs, boolean threaded) {
    return worst(paths, tasks, before, runNs, threaded ? new RtPatch() : null);
  }

  /**
   * {@link #worst(Kernel24Paths, BiConsumer, Consumer, long)}, with {@code rt} (a patch of
   * realtime preemption's switches, or null for none) applied after the preempt patch.
   */
  static SampleAnatomy worst(Kernel24Paths paths, BiConsumer<Kernel24Paths, KernelBuilder> tasks,
      Consumer<Kernel> before, long runNs, KernelPatch rt) {
    Realfeel realfeel = new Realfeel(paths, Realfeel.DEFAULT_HZ);
    KernelBuilder kb = new KernelBuilder(MachineSpec.uniprocessor(), 1)
        .scheduler(SchedulerProvider.create("goodness"));
    paths.install(kb);
    paths.installDaemons(kb);
    kb.patch(new PreemptKernelPatch());
    if (rt != null) {
      kb.patch(rt);
    }
    LatencyAnatomy anatomy = new LatencyAnatomy(realfeel.probe(), 4);
    kb.tracer(anatomy);
    kb.task(realfeel.task());
    tasks.accept(paths, kb);
    realfeel.listen(anatomy);
    Kernel kernel = kb.build();
    realfeel.start(kernel);
    before.accept(kernel);
    kernel.run(runNs);
    return anatomy.worst().get(0);
  }

  /** The worst sample with nothing armed before the run. */
  static SampleAnatomy worst(Kernel24Paths paths, BiConsumer<Kernel24Paths, KernelBuilder> tasks, long runNs) {
    return worst(paths, tasks, k -> { }, runNs);
  }

  /** What a declared cause says, in the load's terms. */
  static String describe(Cause c) {
    assertThat(c).isInstanceOf(Cause.Declared.class);
    Cause.Declared d = (Cause.Declared) c;
    return d.cause().describe(d.hold());
  }
}
