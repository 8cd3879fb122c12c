package dev.kernellab.paths;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.TaskState;
import dev.kernellab.paths.fs.Pipe;
import org.junit.jupiter.api.Test;

/** fs/pipe.c of 2.4.17: a pipe's page fills, and its writer sleeps until a reader drains it. */
class PipeTests {

  private static final long MS = 1_000_000;

  /** A kernel of the catalog {@code p} running {@code tasks} for {@code ns}. */
  private static Kernel run(Kernel24Paths p, long ns, TaskSpec... tasks) {
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 1)
        .scheduler(new SimpleRoundRobinScheduler());
    p.install(b);
    for (TaskSpec t : tasks) {
      b.task(t);
    }
    Kernel k = b.build();
    k.run(ns);
    return k;
  }

  private static TaskSpec looping(String comm, KernelPath syscall, long userNs) {
    return TaskSpec.user(comm, KernelPath.userProgram(comm)
        .loop("main", Long.MAX_VALUE, l -> l.syscall(syscall).compute(userNs)).build());
  }

  @Test
  void aWriterSleepsOnAFullPipe() {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    Pipe pipe = p.syscalls().newPipe("full");
    Kernel k = run(p, 5 * MS, looping("writer", pipe.write, 0));
    assertThat(pipe.messages()).isEqualTo(Pipe.CAPACITY);
    assertThat(k.task("writer").orElseThrow().state()).isEqualTo(TaskState.INTERRUPTIBLE);
    assertThat(String.join("\n", pipe.write.listing())).contains("if (PIPE_FULL)");
  }

  @Test
  void aReaderDrainsAFullPipeAndWakesItsWriter() {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    Pipe pipe = p.syscalls().newPipe("both");
    Kernel k = run(p, 50 * MS, looping("writer", pipe.write, 0), looping("reader", pipe.read, 100_000));
    assertThat(k.task("reader").orElseThrow().voluntarySwitches() + k.task("writer").orElseThrow().voluntarySwitches()).isGreaterThan(100);
    assertThat(pipe.messages()).isBetween(0L, Pipe.CAPACITY);
  }
}
