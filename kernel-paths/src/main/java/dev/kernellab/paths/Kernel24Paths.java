package dev.kernellab.paths;

import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.arch.Apm;
import dev.kernellab.paths.drivers.Block;
import dev.kernellab.paths.drivers.Console;
import dev.kernellab.paths.drivers.Rtc;
import dev.kernellab.paths.fs.Buffer;
import dev.kernellab.paths.fs.Coredump;
import dev.kernellab.paths.fs.Dcache;
import dev.kernellab.paths.fs.Execve;
import dev.kernellab.paths.fs.Ext2;
import dev.kernellab.paths.fs.Inode;
import dev.kernellab.paths.fs.PageCache;
import dev.kernellab.paths.fs.Proc;
import dev.kernellab.paths.fs.Super;
import dev.kernellab.paths.fs.Readdir;
import dev.kernellab.paths.fs.Syscalls;
import dev.kernellab.paths.fs.VfsCache;
import dev.kernellab.paths.kernel.Exit;
import dev.kernellab.paths.kernel.Fork;
import dev.kernellab.paths.kernel.Sched;
import dev.kernellab.paths.kernel.Timer;
import dev.kernellab.paths.mm.Filemap;
import dev.kernellab.paths.mm.Memory;
import dev.kernellab.paths.mm.Slab;
import dev.kernellab.paths.mm.Swapfile;
import dev.kernellab.paths.mm.Vmscan;
import dev.kernellab.paths.net.Net;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The catalog of one 2.4.17 kernel's code paths: mm/, fs/, drivers/, net/ and kernel/ as
 * {@link KernelPath}s with their locks, named loop {@link Site}s and calibrated lengths.
 *
 * <p>Models the paths of Linux 2.4.17 that the loads of the 2001-2002 latency debate exercise
 * (docs/lowlatency-sites.md lists them by the patch that touched them).
 *
 * <p>A catalog belongs to one kernel: its locks carry holder state and statistics, its drivers
 * hold wait queues and counters. Make one per kernel, install its drivers on that kernel's
 * builder, and take the paths for that kernel's tasks from it:
 *
 * <pre>{@code
 * Kernel24Paths paths = new Kernel24Paths(PathParams.defaults());
 * KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), seed).scheduler(s);
 * paths.install(b);                 // rtc_interrupt on IRQ 8, ide_intr on 14, net_rx_action on NET_RX
 * paths.installDaemons(b);          // kswapd, bdflush, kupdated
 * b.patch("lowlat");                // finds this catalog's locks through the builder
 * b.task(TaskSpec.user("cp", userProgram("cp").loop(..., l -> l.syscall(paths.filemap().sysRead))));
 * }</pre>
 */
public final class Kernel24Paths {

  /**
   * Sites where vanilla 2.4.17 already tests need_resched (the 2.4.17 tree's mm/filemap.c,
   * mm/swapfile.c and mm/vmscan.c; docs/lowlatency-sites.md, Vanilla 2.4.17); the ksoftirqd
   * loop is kernel-core's.
   */
  public static final List<Site> VANILLA_RESCHED_SITES =
      List.of(
          Filemap.TRUNCATE, Filemap.INVALIDATE2, Swapfile.TRY_TO_UNUSE, Vmscan.SWAP_OUT,
          Vmscan.SHRINK_CACHE, Vmscan.KSWAPD_BALANCE_PGDAT);

  /**
   * pitReadNs of the default machine, for the timer row of the table (kernel-paths cannot see
   * hw-model's CostTable defaults without a machine; the run itself charges the machine's).
   */
  static final long DEFAULT_PIT_READ_NS = dev.kernellab.hw.CostTable.pentium3At800MHz().pitReadNs();

  private final PathParams params;
  private final Locks locks = new Locks();
  private final PageCache pageCache = new PageCache();
  private final Slab slab = new Slab();
  private final VfsCache vfsCache = new VfsCache(slab);
  private final Block block;
  private final Buffer buffer;
  private final Dcache dcache;
  private final Inode inode;
  private final Vmscan vmscan;
  private final Swapfile swapfile;
  private final Memory memory;
  private final Filemap filemap;
  private final Ext2 ext2;
  private final Proc proc;
  private final Super superBlock;
  private final Syscalls syscalls;
  private final Readdir readdir;
  private final Rtc rtc;
  private final Console console;
  private final Net net;
  private final Exit exit;
  private final Fork fork;
  private final Execve execve;
  private final Coredump coredump;
  private final Apm apm = new Apm();

  /** Builds every path for one kernel. */
  public Kernel24Paths(PathParams params) {
    this.params = params;
    block = new Block(locks);
    dcache = new Dcache(locks, params, slab, vfsCache);
    inode = new Inode(locks, params, slab, vfsCache);
    buffer = new Buffer(locks, params, block, pageCache, inode.syncUnlockedInodes);
    vmscan = new Vmscan(locks, params, dcache.pruneDcache, inode.pruneIcache, slab, vfsCache);
    swapfile = new Swapfile(locks);
    memory = new Memory(locks, params, vmscan.allocWakeup);
    ext2 = new Ext2(locks, params);
    filemap = new Filemap(locks, params, pageCache, vfsCache, vmscan.allocWakeup, buffer.balanceDirty,
        ext2.deleteInode, ext2.truncate);
    proc = new Proc(params, swapfile.siSwapinfo);
    superBlock = new Super(dcache, inode, buffer, filemap.invalidateInodePages);
    syscalls = new Syscalls(locks, vfsCache);
    readdir = new Readdir(locks, vfsCache);
    rtc = new Rtc(locks);
    console = new Console(locks, params);
    net = new Net(slab);
    List<CatalogEntry> mm = memory.entries();
    exit = new Exit(locks, params, memory.exitMmap, mm.get(1));
    fork = new Fork(locks, memory.dupMmap, mm.get(2));
    execve = new Execve(locks, memory.exitMmap);
    coredump = new Coredump(locks, params, pageCache, syscalls.open, filemap, exit.sysExit);
  }

  /**
   * The page cache of this catalog's kernel: files a workload creates live here, and the
   * file paths consult it when a call passes a {@code FileIo}.
   */
  public PageCache pageCache() {
    return pageCache;
  }

  /**
   * The dentry and inode caches of this catalog's kernel: the workloads' lookups, closes,
   * creates and unlinks change them, and the prunes and kupdate's inode sync walk them.
   */
  public VfsCache vfsCache() {
    return vfsCache;
  }

  /** A catalog with {@link PathParams#defaults()}. */
  public static Kernel24Paths withDefaults() {
    return new Kernel24Paths(PathParams.defaults());
  }

  /**
   * Registers the catalog's drivers (the RTC on IRQ 8, the NET_RX softirq) and attaches the
   * catalog to the builder, so that a patch applied by name ({@code b.patch("lowlat")}, before or
   * after this call) finds its locks and sites: the one way to apply a patch to a catalog.
   */
  public void install(KernelBuilder b) {
    pageCache.setMemory(b.machine().memoryBytes());
    pageCache.setDisk(b.machine().disk().capacitySectors());
    rtc.install(b);
    b.ideDriver(locks.ioRequestLock);
    net.install(b);
    b.attach(Kernel24Paths.class, this);
    // Code this configuration leaves out is still code a patch may rightly touch: its hook just
    // never runs here, as a hunk in a driver that is not compiled in.
    b.declareSites(allSites());
  }

  /**
   * Every loop site of the 2.4.17 code this module models, in every configuration
   * ({@link PathParams}' choices: the VGA text or the framebuffer console), in catalog order,
   * each once: the sites a patch may hook.
   */
  public static List<Site> allSites() {
    return AllSites.SITES;
  }

  private static final class AllSites {
    // Sites are values: one list serves every kernel.
    static final List<Site> SITES = Stream.concat(
            new Kernel24Paths(PathParams.defaults()).sites().stream(),
            new Kernel24Paths(PathParams.defaults().withFramebufferConsole()).sites().stream())
        .distinct()
        .toList();
  }

  /** The 2.4.17 kernel threads the catalog models: kswapd, bdflush, kupdated. */
  public List<TaskSpec> daemons() {
    return List.of(
        TaskSpec.kernelThread("kswapd", vmscan.kswapd),
        TaskSpec.kernelThread("bdflush", buffer.bdflush),
        TaskSpec.kernelThread("kupdated", buffer.kupdate));
  }

  /** Starts {@link #daemons()} at boot. */
  public void installDaemons(KernelBuilder b) {
    daemons().forEach(b::task);
  }

  /** Every row, grouped by kernel directory (mm, fs, drivers, net, kernel). */
  public List<CatalogEntry> entries() {
    List<CatalogEntry> out = new ArrayList<>();
    out.addAll(memory.entries());
    out.addAll(filemap.entries());
    out.addAll(ext2.entries());
    out.addAll(vmscan.entries());
    out.addAll(slab.entries());
    out.addAll(swapfile.entries());
    out.addAll(buffer.entries());
    out.addAll(dcache.entries());
    out.addAll(inode.entries());
    out.addAll(superBlock.entries());
    out.addAll(proc.entries());
    out.addAll(syscalls.entries());
    out.addAll(readdir.entries());
    out.addAll(rtc.entries());
    out.addAll(console.entries());
    out.add(Block.ideIntrEntry(KernelPath.path("drivers/ide/ide.c", "ide_intr").build()));
    out.addAll(net.entries());
    out.addAll(exit.entries());
    // The child program only names the fork row; its 1 us of user work is never run here.
    out.addAll(fork.entries(KernelPath.userProgram("child").compute(1_000).build()));
    out.addAll(execve.entries(memory.entries().get(1)));
    out.addAll(coredump.entries());
    out.addAll(Timer.entries(DEFAULT_PIT_READ_NS));
    out.addAll(Sched.entries());
    out.addAll(apm.entries());
    return out;
  }

  /** Every loop site of this catalog's paths (its configuration), in catalog order, each once. */
  public List<Site> sites() {
    List<Site> out = new ArrayList<>();
    for (CatalogEntry e : entries()) {
      for (Site s : e.path().sites()) {
        if (!out.contains(s)) {
          out.add(s);
        }
      }
    }
    return out;
  }

  /** The parameters the counts were drawn from. */
  public PathParams params() {
    return params;
  }

  /** This kernel's locks. */
  public Locks locks() {
    return locks;
  }

  /** mm/memory.c and mm/mmap.c. */
  public Memory memory() {
    return memory;
  }

  /** fs/exec.c do_coredump: a task killed by a signal dumps core under the BKL. */
  public Coredump coredump() {
    return coredump;
  }

  /** fs/ext2: the unlinked file's blocks freed under the BKL. */
  public Ext2 ext2() {
    return ext2;
  }

  /** mm/filemap.c. */
  public Filemap filemap() {
    return filemap;
  }

  /** mm/vmscan.c. */
  public Vmscan vmscan() {
    return vmscan;
  }

  /** mm/slab.c. */
  public Slab slab() {
    return slab;
  }

  /** mm/swapfile.c. */
  public Swapfile swapfile() {
    return swapfile;
  }

  /** fs/buffer.c. */
  public Buffer buffer() {
    return buffer;
  }

  /** fs/dcache.c. */
  public Dcache dcache() {
    return dcache;
  }

  /** fs/inode.c. */
  public Inode inode() {
    return inode;
  }

  /** fs/super.c. */
  public Super superBlock() {
    return superBlock;
  }

  /** fs/proc. */
  public Proc proc() {
    return proc;
  }

  /** The small file system calls and pipes. */
  public Syscalls syscalls() {
    return syscalls;
  }

  /** fs/readdir.c over ext2: reading a directory. */
  public Readdir readdir() {
    return readdir;
  }

  /** drivers/char/rtc.c. */
  public Rtc rtc() {
    return rtc;
  }

  /** The console. */
  public Console console() {
    return console;
  }

  /** drivers/block. */
  public Block block() {
    return block;
  }

  /** net/. */
  public Net net() {
    return net;
  }

  /** kernel/exit.c. */
  public Exit exit() {
    return exit;
  }

  /** kernel/fork.c. */
  public Fork fork() {
    return fork;
  }

  /** fs/exec.c and fs/binfmt_elf.c: execve. */
  public Execve execve() {
    return execve;
  }

  /** arch/i386/kernel/apm.c: kapmd, for a machine with APM (not a boot task by default). */
  public Apm apm() {
    return apm;
  }
}
