package dev.kernellab.anatomy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SyscallArgs;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.LatencyCause;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.PathParams;
import dev.kernellab.paths.drivers.Console;
import dev.kernellab.paths.fs.Coredump;
import dev.kernellab.paths.fs.Ext2;
import dev.kernellab.paths.fs.FileIo;
import dev.kernellab.paths.fs.Readdir;
import dev.kernellab.paths.fs.VfsFile;
import dev.kernellab.paths.kernel.Timer;
import dev.kernellab.workloads.LoopbackNfs;
import org.junit.jupiter.api.Test;

/**
 * One small machine per region of 2.4.17 that holds the big kernel lock, where that region is
 * the worst case of realfeel at 2048 Hz on a preemptible UP 2.4.17 kernel: under the preempt
 * patch lock_kernel() is a spinlock on UP too, so its holder cannot be preempted, and the
 * anatomy names the region in the load's terms through the cause its path declares.
 */
class BigKernelLockScenarioTests {

  private static final long MS = 1_000_000;

  /** A user program that sleeps 20 ms, makes one system call {@code call}, and idles. */
  private static KernelPath onceAfter20Ms(String comm, KernelPath call, SyscallArgs<?> args) {
    return KernelPath.userProgram(comm)
        .syscall(Timer.sysNanosleep(20 * MS))
        .syscall(call, args)
        .loop("idle", Long.MAX_VALUE, l -> l.syscall(Timer.sysNanosleep(100 * MS)))
        .build();
  }

  /**
   * rm of a 100 MB file that is not in the page cache (written long ago): truncate_inode_pages
   * has nothing to do, and ext2_delete_inode frees its 25,600 blocks, 25 indirect blocks and the
   * double indirect one, all under the BKL: 2.6 ms without a preemption point.
   */
  @Test
  void anUnlinkOfABigFileIsNamedAsExt2TruncateWithItsBlocksUnderTheBkl() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    VfsFile big = paths.pageCache().create("big.iso", 25_600);
    FileIo io = new FileIo();
    SampleAnatomy w = PreemptibleRealfeelRig.worst(paths, (p, kb) -> kb.task(TaskSpec.user("rm",
        onceAfter20Ms("rm", paths.filemap().sysUnlink, c -> io.on(big, 0, 0)))), 100 * MS);
    assertThat(w.dominant().part()).isEqualTo(Part.WAIT_FOR_CPU);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.Declared.class, d -> {
      assertThat(d.cause()).isEqualTo(new Ext2.Ext2Truncate());
      assertThat(d.task().comm()).isEqualTo("rm");
      assertThat(d.iterations()).isEqualTo(25_600);
    });
    assertThat(PreemptibleRealfeelRig.describe(w.culprit())).startsWith("ext2_truncate: 25,600 blocks freed, BKL held (on rm[");
    assertThat(w.latencyNs()).isGreaterThan(2 * MS);
    assertThat(Ext2.holdNs(25_600)).isBetween(2_600_000L, 2_700_000L);
  }

  /**
   * A 2,000-page process (8 MB resident) dies of SIGSEGV under {@code ulimit -c unlimited}:
   * do_coredump writes the headers' page and its 2,000 pages through generic_file_write with
   * the BKL held from its first line to its last, 26 ms without a preemption point.
   */
  @Test
  void aCoreDumpIsNamedAsDoCoredumpWithThePagesWrittenUnderTheBkl() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    SampleAnatomy w = PreemptibleRealfeelRig.worst(paths, (p, kb) -> kb.task(TaskSpec.user("crashme-child",
        KernelPath.userProgram("crashme-child")
            .syscall(Timer.sysNanosleep(20 * MS))
            .pageFault(p.coredump().fatalSignal(Coredump.RLIM_INFINITY))
            .build()).residentPages(2_000)), 100 * MS);
    assertThat(w.dominant().part()).isEqualTo(Part.WAIT_FOR_CPU);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.Declared.class, d -> {
      assertThat(d.cause()).isEqualTo(new Coredump.CoreDump());
      assertThat(d.task().comm()).isEqualTo("crashme-child");
    });
    assertThat(PreemptibleRealfeelRig.describe(w.culprit()))
        .matches("BKL held by crashme-child\\[\\d+\\] in do_coredump \\([\\d,]+ pages written, \\d+\\.\\d us\\)");
    assertThat(w.latencyNs()).isGreaterThan(20 * MS);
    assertThat(Coredump.holdNs(2_000)).isBetween(25 * MS, 28 * MS);
  }

  /**
   * The same death under the kernel's default RLIMIT_CORE of 0: do_coredump takes the BKL, finds
   * the limit below a page and lets it go; what the probe waits for is no core dump.
   */
  @Test
  void underACoreLimitOfZeroTheDeathDumpsNothingAndIsNoWorstCase() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    SampleAnatomy w = PreemptibleRealfeelRig.worst(paths, (p, kb) -> kb.task(TaskSpec.user("crashme-child",
        KernelPath.userProgram("crashme-child")
            .syscall(Timer.sysNanosleep(20 * MS))
            .pageFault(p.coredump().fatalSignal(0))
            .build()).residentPages(2_000)), 100 * MS);
    assertThat(paths.coredump().core()).isNull();
    assertThat(w.latencyNs()).isLessThan(2 * MS);
  }

  /**
   * truncate(2) to 0 of a 100 MB file written long ago (nothing cached): notify_change takes the
   * BKL, vmtruncate has no page to drop and calls ext2_truncate, which frees the 25,600 blocks
   * with the BKL taken again: the same stretch as the unlink's, reached through vmtruncate.
   */
  @Test
  void aTruncateOfABigFileIsNamedAsExt2TruncateReachedThroughVmtruncate() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    VfsFile big = paths.pageCache().create("big.log", 25_600);
    FileIo io = new FileIo();
    SampleAnatomy w = PreemptibleRealfeelRig.worst(paths, (p, kb) -> kb.task(TaskSpec.user("logrotate",
        onceAfter20Ms("logrotate", paths.filemap().sysTruncate, c -> io.on(big, 0, 0)))), 100 * MS);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.Declared.class, d -> {
      assertThat(d.cause()).isEqualTo(new Ext2.Ext2Truncate());
      assertThat(d.task().comm()).isEqualTo("logrotate");
      assertThat(d.iterations()).isEqualTo(25_600);
    });
    assertThat(big.sizePages()).isZero();
    assertThat(w.latencyNs()).isGreaterThan(2 * MS);
  }

  /**
   * make echoes a 2.4.17 compile command (216 bytes, two lines of 128 columns) to a framebuffer
   * console: do_tty_write holds the BKL over write_chan, and each line's do_con_write draws and
   * scrolls the whole screen (10.7 ms) before its console_conditional_schedule can drop it.
   */
  @Test
  void aWriteToTheFramebufferConsoleIsNamedAsTtyWriteUnderTheBkl() {
    Kernel24Paths paths = new Kernel24Paths(PathParams.defaults().withFramebufferConsole());
    Console.TtyWrite line = new Console.TtyWrite();
    SampleAnatomy w = PreemptibleRealfeelRig.worst(paths, (p, kb) -> kb.task(TaskSpec.user("make",
        onceAfter20Ms("make", p.console().ttyWrite, c -> line.of(216)))), 100 * MS);
    assertThat(w.dominant().part()).isEqualTo(Part.WAIT_FOR_CPU);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.Declared.class, d -> {
      assertThat(d.cause()).isEqualTo(new Console.TtyWriteBkl());
      assertThat(d.task().comm()).isEqualTo("make");
    });
    assertThat(PreemptibleRealfeelRig.describe(w.culprit())).startsWith("BKL held by make[");
    assertThat(PreemptibleRealfeelRig.describe(w.culprit())).contains(" in tty_write (");
    assertThat(w.latencyNs()).isGreaterThan(10 * MS);
  }

  /**
   * find walks a directory of 2,000 files, again and again: glibc's readdir refills its 4 KiB
   * buffer with a getdents64 of 128 entries each time, and vfs_readdir holds the BKL over
   * ext2_readdir's walk of the directory's pages for each (up to 2 pages and 128 entries, 37 us).
   * Nothing else runs, so a probe that lands in one waits for it.
   */
  @Test
  void aDirectoryListingIsNamedAsVfsReaddirWithItsEntriesUnderTheBkl() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    Readdir.Directory dir = new Readdir.Directory(null, 12);
    dir.entries(2_002);
    Readdir.Getdents g = new Readdir.Getdents();
    SampleAnatomy w = PreemptibleRealfeelRig.worst(paths, (p, kb) -> kb.task(TaskSpec.user("find",
        KernelPath.userProgram("find")
            .syscall(Timer.sysNanosleep(20 * MS))
            .loop("walk", Long.MAX_VALUE, l -> l
                .probe((c, t, now) -> g.open(dir))
                .loopWhile("readdir", c -> !g.atEnd(), r -> r.syscall(p.readdir().getdents, c -> g)))
            .build())), 100 * MS);
    assertThat(w.dominant().part()).isEqualTo(Part.WAIT_FOR_CPU);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.Declared.class, d -> {
      assertThat(d.cause()).isEqualTo(new Readdir.ReaddirBkl());
      assertThat(d.task().comm()).isEqualTo("find");
    });
    assertThat(PreemptibleRealfeelRig.describe(w.culprit()))
        .matches("BKL held by find\\[\\d+\\] in vfs_readdir \\(ext2_readdir, [\\d,]+ (entries listed|directory pages),"
            + " \\d+\\.\\d us\\).*");
    assertThat(w.latencyNs()).isGreaterThan(2 * Readdir.GET_PAGE_NS + 64 * Readdir.ENTRY_NS);
  }

  /**
   * A client writes 64 KiB files over the loopback mount, one 8 KiB RPC after another: each
   * nfsd runs nfsd_write's generic_file_write, the reply and its next svc_recv with the BKL it
   * took in nfsd(), and the probe waits for it.
   */
  @Test
  void anNfsdServingAWriteHoldsTheBklAcrossSvcProcessAndIsNamedSo() {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    LoopbackNfs nfs = new LoopbackNfs(paths, 1);
    VfsFile out = nfs.create("out.o", 0);
    FileIo io = new FileIo();
    SampleAnatomy w = PreemptibleRealfeelRig.worst(paths, (p, kb) -> {
      nfs.daemons().forEach(kb::task);
      kb.task(TaskSpec.user("cc1", KernelPath.userProgram("cc1")
          .loop("object", Long.MAX_VALUE, l -> l
              .syscall(nfs.call(0, true), c -> io.on(out, 0, 64 * 1024))
              .syscall(Timer.sysNanosleep(MS)))
          .build()));
    }, 200 * MS);
    assertThat(w.dominant().part()).isEqualTo(Part.WAIT_FOR_CPU);
    assertThat(w.culprit()).isInstanceOfSatisfying(Cause.Declared.class, d -> {
      assertThat(d.cause()).isInstanceOf(LoopbackNfs.NfsdBkl.class);
      assertThat(d.task().comm()).startsWith("nfsd");
    });
    assertThat(PreemptibleRealfeelRig.describe(w.culprit()))
        .matches("BKL held by nfsd\\d\\[\\d+\\] in svc_process \\(mm/filemap.c generic_file_write, \\d+\\.\\d us\\)");
    // A preemptible kernel would switch to realfeel at the wake-up: ~17 us on this machine.
    assertThat(w.latencyNs()).isGreaterThan(50_000);
  }

  /** What explain prints for the NFS client's hold is one line in the mount's terms. */
  @Test
  void theClientsRpcUnderTheBklReadsAsOneLine() {
    LatencyCause.Hold h = new LatencyCause.Hold("cc1[12]",
        KernelPath.path("fs/nfs/read.c", "nfs_readpage_sync").build(), 30_000, 0);
    assertThat(new LoopbackNfs.NfsClientBkl("nfs_readpage_sync").describe(h)).isEqualTo(
        "BKL held by cc1[12] in nfs_readpage_sync: the RPC's encoding and transmit"
            + " (fs/nfs/read.c nfs_readpage_sync, 30.0 us)");
  }
}
