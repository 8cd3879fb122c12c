package dev.kernellab.paths.fs;

import static dev.kernellab.paths.Calibration.MEMORY_MISS_NS;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelCpu;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.Mm;
import dev.kernellab.kernel.Task;
import dev.kernellab.kernel.spi.LatencyCause;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.Locks;
import dev.kernellab.paths.PathParams;
import dev.kernellab.paths.Quantiles;
import dev.kernellab.paths.mm.Filemap;
import java.util.List;
import java.util.Locale;

/**
 * Models fs/exec.c {@code do_coredump()} and fs/binfmt_elf.c {@code elf_core_dump()} (2.4.17),
 * reached from arch/i386/kernel/signal.c {@code do_signal()} when a task dies of a signal whose
 * default action dumps core (SIGSEGV, SIGILL, SIGBUS, SIGFPE...): the whole dump, the old core's
 * truncation included, runs under the big kernel lock.
 *
 * <p>The core's size is the dying task's address space ({@link Mm}: every resident page is
 * written), cut at its {@code RLIMIT_CORE}, which a path is built for:
 *
 * <pre>{@code
 * KernelPath dies = paths.coredump().fatalSignal(Coredump.RLIM_INFINITY);   // ulimit -c unlimited
 * KernelPath child = userProgram("crashme-child")...pageFault(dies).build();
 * }</pre>
 *
 * <p>The analysis names the hold with {@link CoreDump}: "BKL held by crashme-child[40] in
 * do_coredump (321 pages written, 4212.3 us)".
 */
@Models(file = "fs/exec.c", function = "do_coredump", version = "2.4.17")
@Models(file = "fs/binfmt_elf.c", function = "elf_core_dump", version = "2.4.17")
@Models(file = "arch/i386/kernel/signal.c", function = "do_signal", version = "2.4.17")
public final class Coredump {

  /*
   * Implementation overview
   *
   * do_signal, on the way back to user mode after the fault that raised the signal, finds no
   * handler for a core-dumping signal, calls do_coredump and then do_exit [1]. do_coredump takes
   * lock_kernel() first and drops it last. In between: the binfmt, mm->dumpable and
   * RLIMIT_CORE tests (a soft limit below ELF_EXEC_PAGESIZE, 4 KiB, ends it there: the
   * kernel's INIT_RLIMITS soft core limit is 0, so a task dumps only if something raised it);
   * filp_open("core", O_CREAT | O_RDWR | O_NOFOLLOW) in the task's cwd, the name without a
   * pid (core_uses_pid 0, one mm user), so each dumper of a directory reuses the last one's
   * file; do_truncate(file, 0), which is notify_change and vmtruncate with the BKL nested (the
   * old core's cached pages dropped and its blocks freed, Filemap.doTruncate); then
   * elf_core_dump [2].
   *
   * elf_core_dump writes the ELF header, a program header a vma and the notes (prstatus,
   * psinfo, the task_struct, the FPU state) into the first page, then for each vma maydump()
   * accepts (writable, or anonymous; not read-only file text) every page: get_user_pages (one
   * present page: the vma, page_table_lock, follow_page), kmap, DUMP_WRITE of 4 KiB through
   * file->f_op->write, which is ext2's generic_file_write, with the usual page-cache insertion,
   * ext2_get_block under a nested lock_kernel and balance_dirty [2]. Each DUMP_WRITE adds to
   * the size and stops the dump once it passes RLIMIT_CORE.
   *
   *     do_signal -> do_coredump:  lock_kernel
   *                                  checks; RLIMIT_CORE < 4 KiB ? unlock, done
   *                                  filp_open("core")  do_truncate(core, 0)
   *                                  elf_core_dump: headers, notes | page, page, page ...
   *                                  filp_close
   *                                unlock_kernel
   *               -> do_exit       (exit_mmap; lock_kernel again, to the end)
   *
   * Neither the preempt patch nor the low-latency patch touches do_coredump or elf_core_dump
   * [3]; the low-latency patch's conditional_schedule in generic_file_write's page loop is a
   * reschedule point inside the dump, where schedule() drops the BKL. So: vanilla, no
   * reschedule point for the whole dump; preempt, a BKL holder, not preemptible; lowlat, a
   * reschedule point per page.
   *
   * The model writes the first page and then every resident page of the task's Mm in one
   * generic_file_write walk (Filemap.sysWrite with the core's FileIo), after charging the
   * pages' get_user_pages at once: the hold is as long as the C's, which interleaves them.
   * Assumptions said out loud: the Mm's pages are all in vmas maydump() writes (the model's Mm
   * keeps no vma flags; a process's read-only text is counted in too); a vma's pages that are
   * not resident (get_user_pages maps the zero page, DUMP_SEEK skips them) are not in the Mm and
   * not charged; all dumpers share one working directory, so one "core" file.
   *
   * [1] 2.4.17 arch/i386/kernel/signal.c do_signal(), the SIGQUIT..SIGXFSZ case.
   * [2] 2.4.17 fs/exec.c do_coredump(); fs/binfmt_elf.c elf_core_dump(), maydump(), dump_write();
   *     mm/memory.c get_user_pages(); include/asm-i386/resource.h INIT_RLIMITS.
   * [3] preempt-kernel-rml-2.4.17-1.patch (its fs/exec.c hunk is exec_mmap's); the low-latency
   *     patch as applied to 2.4.32 (its fs/exec.c hunk is copy_strings'; docs/lowlatency-sites.md).
   */

  /** RLIM_INFINITY: {@code ulimit -c unlimited}. */
  public static final long RLIM_INFINITY = Long.MAX_VALUE;
  /** The elf binfmt's min_coredump, ELF_EXEC_PAGESIZE: a smaller RLIMIT_CORE dumps nothing. */
  public static final long MIN_COREDUMP = PageCache.PAGE_SIZE;
  /** The core file's name: "core", core_uses_pid being 0 (fs/exec.c) and the mm single-user. */
  public static final String CORE_NAME = "core";

  /** dequeue_signal and the default action's dispatch in do_signal: assumption, 0.5 us. */
  public static final long SIGNAL_DEFAULT_NS = 500;
  /** do_coredump's tests (binfmt, mm->dumpable, RLIMIT_CORE): assumption, 2 DRAM misses. */
  public static final long COREDUMP_CHECKS_NS = 2 * MEMORY_MISS_NS;
  /**
   * elf_core_dump's header, program headers and notes built (prstatus, psinfo, the task_struct
   * copied, dump_fpu): assumption, 2 us, ~1,600 instructions; their bytes are the first page's
   * write.
   */
  public static final long ELF_NOTES_NS = 2_000;
  /**
   * get_user_pages of one present page, kmap and put_page: find_extend_vma (cached), the pmd and
   * pte lookups and the struct page, cold in a dying process: assumption, 3 DRAM misses.
   */
  public static final long GET_USER_PAGE_NS = 3 * MEMORY_MISS_NS;
  /** filp_close of the core: {@link Syscalls#CLOSE_NS}. */
  public static final long CORE_CLOSE_NS = Syscalls.CLOSE_NS;

  /** Dumps at once: a pool of the dumpers' write arguments (one dumper each), no allocation. */
  private static final int MAX_DUMPERS = 8;

  private final Locks locks;
  private final PageCache cache;
  private final PathParams params;
  private final KernelPath open;
  private final KernelPath doTruncate;
  private final KernelPath write;
  private final KernelPath exit;
  private final FileIo[] io = new FileIo[MAX_DUMPERS];
  private final Task[] dumper = new Task[MAX_DUMPERS]; // the task using io[i], null if free
  private VfsFile core; // "core" in the dumpers' directory, made by the first dump

  /**
   * Builds do_coredump for one kernel around the file paths it calls: {@code open} (filp_open),
   * {@code filemap}'s do_truncate and generic_file_write, and {@code exit} (do_exit).
   */
  public Coredump(Locks l, PathParams params, PageCache cache, KernelPath open, Filemap filemap, KernelPath exit) {
    this.locks = l;
    this.params = params;
    this.cache = cache;
    this.open = open;
    this.doTruncate = filemap.doTruncate;
    this.write = filemap.sysWrite;
    this.exit = exit;
    for (int i = 0; i < MAX_DUMPERS; i++) {
      io[i] = new FileIo();
    }
  }

  /**
   * Pages elf_core_dump writes for a task of {@code residentPages} under {@code coreLimitBytes}:
   * the headers' page, then the resident pages while the size stays within the limit; 0 below
   * {@link #MIN_COREDUMP}.
   */
  public static long dumpPages(long residentPages, long coreLimitBytes) {
    if (coreLimitBytes < MIN_COREDUMP) {
      return 0;
    }
    return 1 + Math.min(residentPages, coreLimitBytes / PageCache.PAGE_SIZE - 1);
  }

  /**
   * do_signal's default action for a core-dumping signal of a task whose RLIMIT_CORE is
   * {@code coreLimitBytes}: do_coredump, then do_exit. The task never returns to user mode.
   */
  public KernelPath fatalSignal(long coreLimitBytes) {
    return KernelPath.path("arch/i386/kernel/signal.c", "do_signal")
        .compute(SIGNAL_DEFAULT_NS)
        .call(doCoredump(coreLimitBytes))
        .call(exit)
        .build();
  }

  /** do_coredump of the running task under {@code coreLimitBytes}, BKL held throughout. */
  public KernelPath doCoredump(long coreLimitBytes) {
    if (coreLimitBytes < 0) {
      throw new IllegalArgumentException("RLIMIT_CORE must be >= 0 bytes, got " + coreLimitBytes);
    }
    KernelPath.Builder b = KernelPath.path("fs/exec.c", "do_coredump")
        .cause(new CoreDump())
        .lockKernel(locks.kernelFlag)
        .compute(COREDUMP_CHECKS_NS);
    if (coreLimitBytes >= MIN_COREDUMP) {
      b.call(dump(coreLimitBytes));
    }
    return b.unlockKernel(locks.kernelFlag).build();
  }

  private KernelPath dump(long limit) {
    KernelPath elfCoreDump =
        KernelPath.path("fs/binfmt_elf.c", "elf_core_dump")
            .compute(ELF_NOTES_NS)
            .compute("get_user_pages of each page dumped", c -> (pages(c, limit) - 1) * GET_USER_PAGE_NS)
            .args(c -> ioOf(c).on(core, 0, pages(c, limit) * PageCache.PAGE_SIZE))
            .call(write)
            .build();
    return KernelPath.path("fs/exec.c", "do_coredump: dump")
        .call(open)
        .effect("filp_open(\"core\", O_CREAT): the last dumper's file, or a new one", this::take)
        .args(c -> ioOf(c).on(core, 0, 0))
        .call(doTruncate)
        .call(elfCoreDump)
        .compute(CORE_CLOSE_NS)
        .effect("filp_close(): done with the file", this::release)
        .build();
  }

  /** Pages the running task's dump writes: its Mm's resident pages under {@code limit}. */
  private static long pages(KernelCpu c, long limit) {
    Mm mm = c.current().mm();
    return dumpPages(mm == null ? 0 : mm.residentPages(), limit);
  }

  private void take(KernelCpu c) {
    if (core == null) {
      core = cache.create(CORE_NAME, 0);
    }
    for (int i = 0; i < MAX_DUMPERS; i++) {
      if (dumper[i] == null) {
        dumper[i] = c.current();
        return;
      }
    }
    throw new IllegalStateException("more than " + MAX_DUMPERS + " tasks dump core at once");
  }

  private void release(KernelCpu c) {
    dumper[slot(c)] = null;
  }

  private FileIo ioOf(KernelCpu c) {
    return io[slot(c)];
  }

  private int slot(KernelCpu c) {
    Task t = c.current();
    for (int i = 0; i < MAX_DUMPERS; i++) {
      if (dumper[i] == t) {
        return i;
      }
    }
    throw new IllegalStateException(t + " is not dumping core");
  }

  /** The core file, once a task has dumped (null before). */
  public VfsFile core() {
    return core;
  }

  /**
   * What the analysis names while do_coredump runs: the dumping task holds the BKL, writing
   * the core's pages, or dropping the old core's.
   */
  public record CoreDump() implements LatencyCause {
    @Override
    public String describe(LatencyCause.Hold h) {
      String what;
      long written = h.iterationsAt(Filemap.WRITE_PAGE);
      long dropped = h.iterationsAt(Filemap.TRUNCATE);
      if (written > 0) {
        what = String.format(Locale.ROOT, "%,d pages written", written);
      } else if (dropped > 0) {
        what = String.format(Locale.ROOT, "the old core's %,d cached pages dropped", dropped);
      } else {
        what = h.path().file() + " " + h.path().function();
      }
      return String.format(Locale.ROOT, "BKL held by %s in do_coredump (%s, %.1f us)", h.task(), what,
          h.ns() / 1000.0);
    }
  }

  /** do_coredump of a process of {@code pages} resident pages, without the old core's truncation. */
  public static long holdNs(long pages) {
    long written = dumpPages(pages, RLIM_INFINITY);
    return COREDUMP_CHECKS_NS + ELF_NOTES_NS + (written - 1) * GET_USER_PAGE_NS
        + written * Filemap.WRITE_PAGE_NS + CORE_CLOSE_NS;
  }

  /** The rows of this file: a dump under {@code ulimit -c unlimited}. */
  public List<CatalogEntry> entries() {
    Distribution proc = params.processPages();
    return List.of(
        new CatalogEntry(
            "do_coredump (ELF)", doCoredump(RLIM_INFINITY), List.of("kernel_flag"),
            holdNs(Quantiles.typical(proc)), holdNs(Quantiles.tail(proc)),
            "a ~100 MB process dies of SIGSEGV with ulimit -c unlimited: every resident page written"
                + " under the BKL (RLIMIT_CORE 0, the kernel's default, dumps nothing)",
            "generic_file_write 12.5 us/page (fs assumptions) + get_user_pages 3 DRAM misses/page"));
  }
}
