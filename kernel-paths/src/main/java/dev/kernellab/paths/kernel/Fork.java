package dev.kernellab.paths.kernel;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.KernelCpu;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.Task;
import dev.kernellab.kernel.spi.LatencyCause;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.Locks;
import dev.kernellab.paths.mm.Memory;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * Models kernel/fork.c {@code do_fork()} (2.4.17): {@code get_pid()}, {@code copy_mm} /
 * {@code dup_mmap} with mm/memory.c {@code copy_page_range()} (see mm/Memory), then linking the
 * child under {@code write_lock_irq(&tasklist_lock)} and waking it.
 */
@Models(file = "kernel/fork.c", function = "get_pid", version = "2.4.17")
public final class Fork {

  /*
   * Implementation overview
   *
   * get_pid takes lastpid_lock and bumps last_pid. Below next_safe that is all. When last_pid
   * reaches next_safe, or passes PID_MAX (0x8000) and restarts at 300, it walks the task list
   * under read_lock(&tasklist_lock), looking for a task that uses last_pid (as pid, pgrp, tgid
   * or session); at each one it bumps last_pid and restarts the walk from the head ("goto
   * repeat"), and on the way it lowers next_safe to the smallest id above last_pid. So after
   * the pid space has wrapped, a fork whose last_pid runs into a block of live pids walks the
   * list once per pid of the block: tasks x collisions visits, a preempt-off stretch (two
   * locks held) that no 2002 patch touched. The model walks the kernel's live tasks in pid
   * order and compares their pids (a task's pgrp, tgid and session are taken as its pid: the
   * model has no process groups). The model's last_pid starts at the highest live pid at the
   * first fork (the pids the kernel handed out at boot) or where setLastPid put it (a machine
   * that has been up); it follows the kernel's own pids until it wraps, which kernel-core's
   * pids (they only grow) do not: from then on the walk tests the kernel's live pids against
   * the model's last_pid, and the child keeps the pid kernel-core gives it.
   */

  /** get_pid's walk of the task list, restarted at each collision. */
  public static final Site GET_PID = new Site("kernel/fork.c", "get_pid", "for_each_task");

  /** PID_MAX (include/linux/threads.h, 2.4.17): 0x8000. */
  public static final int PID_MAX = 0x8000;
  /** Where last_pid restarts after PID_MAX (kernel/fork.c: "Skip daemons etc."). */
  public static final int PID_RESTART = 300;
  /**
   * Testing one task_struct's pid, pgrp, tgid and session: one DRAM miss a task (the fields
   * share a cache line; the list link is another line of the same struct). Assumption,
   * lmbench memory latency.
   */
  public static final long TASK_VISIT_NS = dev.kernellab.paths.Calibration.MEMORY_MISS_NS;

  /**
   * The cause get_pid declares: the walk of the task list after the pid space wrapped, for
   * the child {@code child}.
   */
  public record GetPid(String child) implements LatencyCause {
    @Override
    public String describe(LatencyCause.Hold h) {
      String what = GET_PID.equals(h.path().site())
          ? String.format(Locale.ROOT, "get_pid for %s: %,d task visits under tasklist_lock, the walk"
              + " restarted at each pid in use after the pid space wrapped", child, h.iterations())
          : "get_pid for " + child;
      return String.format(Locale.ROOT, "%s (on %s, %.1f us)", what, h.task(), h.ns() / 1000.0);
    }
  }

  /** lastpid_lock. */
  public final SpinLock lastpidLock = SpinLock.spin("lastpid_lock");

  private int lastPid = -1; // last_pid; -1 until the first fork takes the highest live pid
  private int nextSafe = PID_MAX; // next_safe
  private long visits; // tasks the running get_pid's walk visits

  /**
   * The cause a fork declares: the parent (the task that runs do_fork) copies its address
   * space for a child that will run {@code child}; dup_mmap holds the child's page_table_lock
   * over each vma's copy_page_range.
   */
  public record DoFork(String child) implements LatencyCause {
    @Override
    public String describe(LatencyCause.Hold h) {
      String what = Memory.COPY_PTE_RANGE.equals(h.path().site())
          ? String.format(Locale.ROOT, "fork for %s: dup_mmap copied %,d ptes of a vma of the parent's mm"
              + " with page_table_lock held", child, h.iterations())
          : "fork for " + child;
      return String.format(Locale.ROOT, "%s (on %s, %.1f us)", what, h.task(), h.ns() / 1000.0);
    }
  }

  /**
   * The cause a vfork declares: the parent lends its mm to a child that will run
   * {@code child} (copy_mm takes a reference, nothing is copied) and sleeps until the child
   * execs or exits.
   */
  public record DoVfork(String child) implements LatencyCause {
    @Override
    public String describe(LatencyCause.Hold h) {
      return String.format(Locale.ROOT, "vfork for %s: the mm shared, no page tables copied (on %s, %.1f us)",
          child, h.task(), h.ns() / 1000.0);
    }
  }

  /**
   * do_fork with CLONE_VM: everything but dup_mmap (alloc_task_struct, the task_struct copy,
   * copy_files, copy_fs, copy_sighand, copy_thread). Assumption: 50 us, a third of
   * {@link dev.kernellab.paths.Calibration#FORK_FIXED_NS}, whose other two thirds are the mm's
   * own fixed work (mm_init's pgd_alloc, a vm_area_struct allocated and linked per vma,
   * flush_tlb_mm). Checked against the one measurement of both found, on a later kernel: M.
   * Kerrisk, The Linux Programming Interface (2010), section 28.3, Table 28-3, Linux 2.6.27 on
   * x86-32: a fork + exit + wait loop of a 1.7 MB process runs 4,544 a second, the vfork loop
   * 28,955, 6.4 times as many; lmbench's fork of ~300 us (docs/hardware-and-costs.md, lmbench
   * costs) over 6.4 is 47 us.
   */
  public static final long VFORK_FIXED_NS = 50_000;

  /** SET_LINKS + hash_pid under write_lock_irq(tasklist_lock): assumption, 1 us. */
  public static final long SET_LINKS_NS = 1_000;

  private final Locks locks;
  private final KernelPath dupMmap;
  private final CatalogEntry dupMmapEntry;
  private final KernelPath getPidWalk;

  /** Builds fork for one kernel around {@code dupMmap} (see mm/Memory). */
  public Fork(Locks l, KernelPath dupMmap, CatalogEntry dupMmapEntry) {
    this.locks = l;
    this.dupMmap = dupMmap;
    this.dupMmapEntry = dupMmapEntry;
    getPidWalk =
        KernelPath.path("kernel/fork.c", "get_pid")
            .readLock(l.tasklistLock)
            .loop(GET_PID, c -> visits, t -> t.compute(TASK_VISIT_NS))
            .readUnlock(l.tasklistLock)
            .build();
  }

  /**
   * Puts last_pid at {@code pid}: the state of a machine that has forked that many times since
   * boot (a test of the wrap, or a long-running machine). Before the first fork only.
   */
  public void setLastPid(int pid) {
    if (pid < 0 || pid >= PID_MAX) {
      throw new IllegalArgumentException("last_pid must be in 0.." + (PID_MAX - 1) + ", got " + pid);
    }
    lastPid = pid;
  }

  /** get_pid(flags): which pid comes next, and how many tasks its walk visits. */
  @Models(file = "kernel/fork.c", function = "get_pid", version = "2.4.17")
  private boolean getPid(KernelCpu c) {
    List<Task> tasks = c.kernel().allTasks();
    if (lastPid < 0) {
      lastPid = tasks.isEmpty() ? 0 : tasks.get(tasks.size() - 1).pid();
    }
    visits = 0;
    lastPid++;
    if ((lastPid & 0xffff8000) != 0) {
      lastPid = PID_RESTART;
    } else if (lastPid < nextSafe) {
      return false;
    }
    nextSafe = PID_MAX;
    int i = 0;
    while (i < tasks.size()) {
      int pid = tasks.get(i).pid();
      visits++;
      if (pid == lastPid) {
        if (++lastPid >= nextSafe) {
          if ((lastPid & 0xffff8000) != 0) {
            lastPid = PID_RESTART;
          }
          nextSafe = PID_MAX;
        }
        i = 0; // goto repeat
        continue;
      }
      if (pid > lastPid && nextSafe > pid) {
        nextSafe = pid;
      }
      i++;
    }
    return true;
  }

  /** The pid get_pid handed out last (-1 before the first fork). */
  public int lastPid() {
    return lastPid;
  }

  /** fork(2) of a child named {@code comm} that runs {@code child}. */
  @Models(file = "kernel/fork.c", function = "do_fork", version = "2.4.17")
  public KernelPath sysFork(String comm, KernelPath child) {
    return doFork(comm, new DoFork(comm), b -> b.call(dupMmap), b -> b.fork(comm, child));
  }

  /**
   * vfork(2) of a child named {@code comm} that runs {@code child}: sys_vfork's
   * {@code do_fork(CLONE_VFORK | CLONE_VM | SIGCHLD)} (arch/i386/kernel/process.c, 2.4.17).
   * copy_mm takes a reference to the parent's mm instead of dup_mmap's copy, so no
   * page_table_lock is held; the parent then sleeps in {@code wait_for_completion(&vfork)}
   * until the child's mm_release (its exec, fs/Execve, or its exit).
   */
  @Models(file = "kernel/fork.c", function = "do_fork", version = "2.4.17")
  @Models(file = "kernel/fork.c", function = "copy_mm", version = "2.4.17")
  public KernelPath sysVfork(String comm, KernelPath child) {
    return doFork(comm, new DoVfork(comm), b -> b.compute(VFORK_FIXED_NS), b -> b.vfork(comm, child));
  }

  /**
   * do_fork for a child named {@code comm}, fork and vfork alike: get_pid under lastpid_lock,
   * then {@code copyMm} (dup_mmap's copy, or copy_mm's reference only), SET_LINKS under
   * tasklist_lock with interrupts off, then {@code clone}, the child made runnable.
   */
  private KernelPath doFork(String comm, LatencyCause cause, UnaryOperator<KernelPath.Builder> copyMm,
      UnaryOperator<KernelPath.Builder> clone) {
    KernelPath.Builder b = KernelPath.path("kernel/fork.c", "do_fork")
        .cause(cause)
        .mightSleep() // alloc_task_struct and the copies' GFP_KERNEL allocations
        .spinLock(lastpidLock)
        .callIf("last_pid past next_safe or PID_MAX: walk the task list", this::getPid,
            KernelPath.path("kernel/fork.c", "get_pid").cause(new GetPid(comm)).call(getPidWalk).build())
        .spinUnlock(lastpidLock);
    return clone.apply(copyMm.apply(b)
            .localIrqDisable()
            .writeLock(locks.tasklistLock)
            .compute(SET_LINKS_NS)
            .writeUnlock(locks.tasklistLock)
            .localIrqEnable())
        .build();
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries(KernelPath sampleChild) {
    return List.of(
        new CatalogEntry(
            "sys_fork", sysFork("child", sampleChild),
            List.of("page_table_lock", "tasklist_lock (irq)"),
            dupMmapEntry.typicalNs() + SET_LINKS_NS, dupMmapEntry.tailNs() + SET_LINKS_NS,
            dupMmapEntry.tail(), dupMmapEntry.source()),
        new CatalogEntry(
            "sys_vfork", sysVfork("child", sampleChild),
            List.of("tasklist_lock (irq)"),
            VFORK_FIXED_NS + SET_LINKS_NS, VFORK_FIXED_NS + SET_LINKS_NS,
            "the same whatever the parent's size: no page tables copied",
            "50 us (assumption: a third of fork's fixed part; TLPI Table 28-3's vfork/fork ratio)"
                + " + 1 us SET_LINKS"));
  }
}
