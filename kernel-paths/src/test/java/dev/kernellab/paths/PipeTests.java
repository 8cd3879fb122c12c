package dev.kernellab.paths;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SimpleRoundRobinScheduler;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.TaskState;
import dev.kernellab.paths.fs.Pipe;
import org.junit.jupiter.api.Test;

/** fs/pipe.c of 2.4.17: a pipe's page fills, and its writer sleeps until a reader drains it. */
class PipeTests {

  private static final long MS = 1_000_000;

  @Test
  void aWriterSleepsOnAFullPipeAndAReaderWakesIt() {
    Kernel24Paths p = Kernel24Paths.withDefaults();
    Pipe pipe = p.syscalls().newPipe("full");
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 1)
        .scheduler(new SimpleRoundRobinScheduler());
    p.install(b);
    b.task(TaskSpec.user("writer", KernelPath.userProgram("writer")
        .loop("main", Long.MAX_VALUE, l -> l.syscall(pipe.write)).build()));
    Kernel k = b.build();
    k.run(5 * MS);
    assertThat(pipe.messages()).isEqualTo(Pipe.CAPACITY);
    assertThat(k.task("writer").state()).isEqualTo(TaskState.INTERRUPTIBLE);
    assertThat(String.join("\n", pipe.write.listing())).contains("if (PIPE_FULL)");

    Kernel24Paths q = Kernel24Paths.withDefaults();
    Pipe both = q.syscalls().newPipe("both");
    KernelBuilder c = new KernelBuilder(MachineSpec.uniprocessor(), 1)
        .scheduler(new SimpleRoundRobinScheduler());
    q.install(c);
    c.task(TaskSpec.user("writer", KernelPath.userProgram("writer")
            .loop("main", Long.MAX_VALUE, l -> l.syscall(both.write)).build()))
        .task(TaskSpec.user("reader", KernelPath.userProgram("reader")
            .loop("main", Long.MAX_VALUE, l -> l.syscall(both.read).compute(100_000)).build()));
    Kernel k2 = c.build();
    k2.run(50 * MS);
    assertThat(k2.task("reader").voluntarySwitches() + k2.task("writer").voluntarySwitches()).isGreaterThan(100);
    assertThat(both.messages()).isBetween(0L, Pipe.CAPACITY);
  }
}
