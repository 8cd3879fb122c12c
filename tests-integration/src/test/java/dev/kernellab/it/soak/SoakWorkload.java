package dev.kernellab.it.soak;

import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.MixedLoadRig;
import dev.kernellab.workloads.Workload;
import dev.kernellab.workloads.Workloads;
import dev.kernellab.workloads.rtapp.RtAppWorkload;
import java.util.List;

/**
 * What a soak run drives on the machine: tasks to start, devices to program, and the progress
 * a healthy kernel must show. One entry per named load; when the workloads module lands, each
 * of its named workloads becomes one.
 */
interface SoakWorkload {

  /** The workload's name in a {@link SoakCase}. */
  String name();

  /** Adds the workload's tasks to {@code b}, over the catalog {@code paths} (installed). */
  Instance install(Kernel24Paths paths, KernelBuilder b, int cpus);

  /** A workload installed in one kernel. */
  interface Instance {
    /** After boot: program the devices. */
    void start(Kernel k);

    /**
     * Progress counted so far, compared between slices of the run: a probe's samples, a load's
     * passes. A count that stops while simulated time goes on means a lost wake-up or a hang.
     */
    long progress();

    /** Comm names of the tasks that must keep getting CPU time. */
    List<String> mustRun();
  }

  /**
   * Every workload the soak knows, in a fixed order: the catalog's mixed load, the registry's,
   * then an rt-app file (docs/rt-app/audio.json, shown in docs/rt-app.md: two SCHED_FIFO timer threads, a
   * logger writing a file and a worker touching memory), read as a user's file is.
   */
  static List<SoakWorkload> all() {
    List<SoakWorkload> out = new java.util.ArrayList<>();
    out.add(new Mixed());
    Workloads.names().forEach(n -> out.add(new Named(n)));
    out.add(new RtAppFile("rtapp-audio", java.nio.file.Path.of("..", "docs", "rt-app", "audio.json")));
    return out;
  }

  /** The workload called {@code name}. */
  static SoakWorkload byName(String name) {
    for (SoakWorkload w : all()) {
      if (w.name().equals(name)) {
        return w;
      }
    }
    throw new IllegalArgumentException("no soak workload '" + name + "'");
  }

  /** A workload of the {@link Workloads} registry. */
  record Named(String name) implements SoakWorkload {
    @Override
    public Instance install(Kernel24Paths paths, KernelBuilder b, int cpus) {
      return instance(Workloads.create(name).install(paths, b));
    }
  }

  /** An rt-app workload file, as {@code --workload FILE} reads it. */
  record RtAppFile(String name, java.nio.file.Path file) implements SoakWorkload {
    @Override
    public Instance install(Kernel24Paths paths, KernelBuilder b, int cpus) {
      return instance(RtAppWorkload.resolve(file.toString()).install(paths, b));
    }
  }

  /** The soak's view of a workload's run. */
  private static Instance instance(Workload.Run run) {
    return new Instance() {
      @Override
      public void start(Kernel k) {
        run.start(k);
      }

      @Override
      public long progress() {
        return run.progress();
      }

      @Override
      public List<String> mustRun() {
        return run.mustRun();
      }
    };
  }

  /**
   * The catalog's mixed load ({@link MixedLoadRig}): a realfeel probe at SCHED_FIFO 99 on the
   * RTC at 2048 Hz, two load tasks (one pinned by its start CPU to the last CPU) looping over
   * every system call of the catalog, and a reader draining the pipe and the connection.
   */
  final class Mixed implements SoakWorkload {
    @Override
    public String name() {
      return "mixed";
    }

    @Override
    public Instance install(Kernel24Paths paths, KernelBuilder b, int cpus) {
      MixedLoadRig rig = new MixedLoadRig(paths);
      b.task(TaskSpec.user("realfeel", rig.realfeel).fifo(99))
          .task(TaskSpec.user("load", rig.load))
          .task(TaskSpec.user("load2", rig.load).onCpu(cpus - 1))
          .task(TaskSpec.user("reader", rig.reader));
      return new Instance() {
        @Override
        public void start(Kernel k) {
          MixedLoadRig.startRtc(k);
        }

        @Override
        public long progress() {
          return rig.periods.size();
        }

        @Override
        public List<String> mustRun() {
          return List.of("realfeel", "load", "load2", "reader");
        }
      };
    }
  }
}
