package dev.kernellab.anatomy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.PathParams;
import dev.kernellab.paths.fs.Execve;
import dev.kernellab.paths.kernel.Fork;
import dev.kernellab.paths.kernel.Timer;
import dev.kernellab.paths.mm.Vmscan;
import org.junit.jupiter.api.Test;

/**
 * One small machine per address-space walk sized by the load (fork's copy of the parent's
 * page tables, exec's unmapping of the forked copy, swap_out's walk of its victim's mm), each
 * the worst case of realfeel at 2048 Hz on a preemptible 2.4.17 uniprocessor, so that only the
 * walk's page_table_lock holds the probe back; the anatomy names it in the load's terms.
 */
class ForkExecSwapScenarioTests {

  private static final long MS = 1_000_000;
  /** A big process: 80 MB resident in one vma. */
  private static final long BIG = 20_000;

  /** kswapd does nothing but swap_out, which wants {@code wanted} ptes a call; no timed wake-ups. */
  private static Kernel24Paths onlySwapOut(long wanted) {
    PathParams b = PathParams.defaults();
    Distribution none = Distribution.fixed(0);
    return new Kernel24Paths(new PathParams(b.processPages(), b.munmapPages(), b.readPages(),
        b.writePages(), b.pageCacheMissRate(), b.dirtyBalanceRate(), b.truncatePages(), b.truncateSkipPages(),
        none, none, Distribution.fixed(wanted), none, b.deviceBuffers(), b.openFiles(), 0,
        false));
  }

  private static final KernelPath SLEEP_FOREVER = KernelPath.userProgram("sleeper")
      .loop("sleep", Long.MAX_VALUE, l -> l.syscall(Timer.sysNanosleep(3_600_000 * MS))).build();

  /**
   * An 80 MB process (X) sleeps; a task wakes kswapd once, and swap_out finds every page young:
   * it walks the whole of X's mm with its page_table_lock held, 3.5 ms at 175 ns a pte.
   */
  @Test
  void aSwapOutThatWalksABigProcessIsNamedAsThatProcesssMm() {
    Kernel24Paths paths = onlySwapOut(BIG);
    KernelPath wake = KernelPath.path("scenario/alloc.c", "wakeup_kswapd")
        .wakeUp(paths.vmscan().kswapdWait).build();
    SampleAnatomy w = PreemptibleRealfeelRig.worst(paths, (p, kb) -> {
      kb.task(TaskSpec.user("X", SLEEP_FOREVER).residentPages(BIG));
      kb.task(TaskSpec.user("alloc", KernelPath.userProgram("alloc")
          .syscall(Timer.sysNanosleep(30 * MS)).syscall(wake).syscall(Timer.sysNanosleep(3_600_000 * MS)).build()));
    }, 100 * MS);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.Declared.class, d -> {
      assertThat(d.cause()).isEqualTo(new Vmscan.SwapOutMm("X"));
      assertThat(d.task().comm()).isEqualTo("kswapd");
      assertThat(d.iterations()).isGreaterThan(1_000);
    });
    assertThat(PreemptibleRealfeelRig.describe(w.culprit()))
        .matches("swap_out_mm: [\\d,]+ ptes of X's mm walked with page_table_lock held \\(on kswapd\\[\\d+\\], .*");
    assertThat(w.latencyNs()).isGreaterThan(MS);
  }

  /**
   * swap_out goes round the mmlist: with a big process and a small one, the call that finds the
   * big one's cursor at its end moves on to the small one, so each walk names its own victim.
   */
  @Test
  void swapOutMovesToTheNextMmOnceAVictimIsWalkedToItsEnd() {
    Kernel24Paths paths = onlySwapOut(BIG);
    KernelPath wake = KernelPath.path("scenario/alloc.c", "wakeup_kswapd")
        .wakeUp(paths.vmscan().kswapdWait).build();
    KernelBuilder kb = new KernelBuilder(MachineSpec.uniprocessor(), 1)
        .scheduler(SchedulerProvider.create("goodness"));
    paths.install(kb);
    paths.installDaemons(kb);
    kb.task(TaskSpec.user("X", SLEEP_FOREVER).residentPages(BIG));
    kb.task(TaskSpec.user("sh", SLEEP_FOREVER).residentPages(300));
    kb.task(TaskSpec.user("alloc", KernelPath.userProgram("alloc")
        .syscall(Timer.sysNanosleep(30 * MS)).syscall(wake).syscall(Timer.sysNanosleep(3_600_000 * MS)).build()));
    Kernel kernel = kb.build();
    kernel.run(100 * MS);
    // kswapd balances two zones, each calls swap_out once wanting BIG ptes: the first walks all
    // of X; the second finds X at its end, resets it, walks the shell to its end (300 ptes),
    // passes it (reset again) and the empty mm of alloc, and walks X from the bottom for the
    // 19,700 ptes it still wants.
    assertThat(swapAddress(kernel, "X")).isEqualTo(BIG - 300);
    assertThat(swapAddress(kernel, "sh")).isZero();
  }

  private static long swapAddress(Kernel kernel, String comm) {
    return kernel.allTasks().stream().filter(t -> t.comm().equals(comm)).findFirst().orElseThrow()
        .mm().swapAddress();
  }

  /**
   * An 80 MB process forks once: dup_mmap copies its big vma with the child's page_table_lock
   * held, 6 ms at 300 ns a pte; the child only sleeps.
   */
  @Test
  void aForkOfABigProcessIsNamedAsThatForkAndItsPtes() {
    SampleAnatomy w = PreemptibleRealfeelRig.worst(Kernel24Paths.withDefaults(), (p, kb) -> kb.task(TaskSpec.user("X",
        KernelPath.userProgram("X")
            .syscall(Timer.sysNanosleep(30 * MS))
            .syscall(p.fork().sysFork("xterm", SLEEP_FOREVER))
            .syscall(Timer.sysNanosleep(3_600_000 * MS)).build()).residentPages(BIG)), 100 * MS);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.Declared.class, d -> {
      assertThat(d.cause()).isEqualTo(new Fork.DoFork("xterm"));
      assertThat(d.task().comm()).isEqualTo("X");
    });
    assertThat(PreemptibleRealfeelRig.describe(w.culprit())).matches(
        "fork for xterm: dup_mmap copied [\\d,]+ ptes of a vma of the parent's mm with page_table_lock held"
            + " \\(on X\\[\\d+\\], .*");
    assertThat(w.latencyNs()).isGreaterThan(MS);
  }

  /**
   * A process that is still the forked copy of an 80 MB parent execs a small program: exec_mmap
   * unmaps the copy, each vma under page_table_lock.
   */
  @Test
  void anExecFromTheCopyOfABigProcessIsNamedAsThatExec() {
    Execve.Image ls = new Execve.Image("ls", 10, 2, 8, 20, 2, 100, 6, 4);
    SampleAnatomy w = PreemptibleRealfeelRig.worst(Kernel24Paths.withDefaults(), (p, kb) -> kb.task(TaskSpec.user("sh",
        KernelPath.userProgram("sh")
            .syscall(Timer.sysNanosleep(30 * MS))
            .syscall(p.execve().sysExecve(ls))
            .syscall(Timer.sysNanosleep(3_600_000 * MS)).build()).residentPages(BIG)), 100 * MS);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.Declared.class, d ->
        assertThat(d.cause()).isEqualTo(new Execve.Exec("ls", 152)));
    assertThat(PreemptibleRealfeelRig.describe(w.culprit())).matches(
        "exec of ls \\(152 pages\\): [\\d,]+ ptes of the forked copy unmapped with page_table_lock held"
            + " \\(on sh\\[\\d+\\], .*");
    assertThat(w.latencyNs()).isGreaterThan(MS);
  }

  /**
   * A machine that has forked 32,767 times since boot, with 400 long-lived tasks (pids up to
   * ~410): the next fork wraps last_pid to 300 and runs into the block of live pids, so
   * get_pid walks the task list again from the head at each of them, with lastpid_lock and
   * tasklist_lock held.
   */
  @Test
  void aForkAfterThePidSpaceWrappedIsNamedAsGetPidsWalk() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    paths.fork().setLastPid(Fork.PID_MAX - 1);
    SampleAnatomy w = PreemptibleRealfeelRig.worst(paths, (p, kb) -> {
      for (int i = 0; i < 400; i++) {
        kb.task(TaskSpec.user("daemon" + i, SLEEP_FOREVER).residentPages(16));
      }
      kb.task(TaskSpec.user("sh", KernelPath.userProgram("sh")
          .syscall(Timer.sysNanosleep(30 * MS))
          .syscall(p.fork().sysFork("ls", SLEEP_FOREVER))
          .syscall(Timer.sysNanosleep(3_600_000 * MS)).build()).residentPages(16));
    }, 100 * MS);
    assertThat(paths.fork().lastPid()).isGreaterThan(Fork.PID_RESTART + 100).isLessThan(Fork.PID_RESTART + 200);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.Declared.class, d -> {
      assertThat(d.cause()).isEqualTo(new Fork.GetPid("ls"));
      assertThat(d.task().comm()).isEqualTo("sh");
    });
    assertThat(PreemptibleRealfeelRig.describe(w.culprit())).matches("get_pid for ls: [\\d,]+ task visits under tasklist_lock, the walk"
        + " restarted at each pid in use after the pid space wrapped \\(on sh\\[\\d+\\], .*");
    assertThat(w.latencyNs()).isGreaterThan(MS);
  }
}
