package dev.kernellab.paths;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.drivers.Block;
import dev.kernellab.paths.drivers.Console;
import dev.kernellab.paths.drivers.Rtc;
import dev.kernellab.paths.fs.Buffer;
import dev.kernellab.paths.fs.Dcache;
import dev.kernellab.paths.fs.Ext2;
import dev.kernellab.paths.fs.Inode;
import dev.kernellab.paths.fs.Pipe;
import dev.kernellab.paths.fs.Proc;
import dev.kernellab.paths.fs.Super;
import dev.kernellab.paths.fs.Syscalls;
import dev.kernellab.paths.kernel.Exit;
import dev.kernellab.paths.kernel.Fork;
import dev.kernellab.paths.kernel.Timer;
import dev.kernellab.paths.mm.Filemap;
import dev.kernellab.paths.mm.Memory;
import dev.kernellab.paths.mm.Slab;
import dev.kernellab.paths.mm.Swapfile;
import dev.kernellab.paths.mm.Vmscan;
import dev.kernellab.paths.net.Net;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The catalog's shape: rows, sites, per-kernel state, vanilla reschedule points, the table. */
class CatalogTests {

  private final Kernel24Paths catalog = Kernel24Paths.withDefaults();

  @Test
  void everyRowNamesAKernelFileAndHasUniqueName() {
    List<String> names = new ArrayList<>();
    for (CatalogEntry e : catalog.entries()) {
      assertThat(e.location()).matches("(mm|fs|drivers|net|kernel|arch)/.*:.*");
      assertThat(names).doesNotContain(e.name());
      names.add(e.name());
    }
    assertThat(names).contains(
        "sys_munmap", "exit_mmap", "sys_fork", "truncate_inode_pages", "sys_read (file)",
        "sys_write (ext2)", "swap_out", "kswapd", "prune_dcache", "prune_icache", "sys_sync",
        "bdflush", "kupdate", "/proc/PID/statm", "printk (console)", "ide_intr (kernel-core)",
        "net_rx_action (NET_RX)", "timer_interrupt (kernel-core)", "sys_open", "pipe_read",
        "sys_select (16 fds)", "sys_nanosleep", "rtc_read");
  }

  @Test
  void sitesAreListedOnceEach() {
    List<Site> sites = catalog.sites();
    assertThat(sites).doesNotHaveDuplicates().contains(Filemap.TRUNCATE_SKIP);
    assertThat(sites).containsAll(Kernel24Paths.VANILLA_RESCHED_SITES);
  }

  /**
   * Each loop of the catalog is at a Site constant of a class modelling its file, and the
   * constants are distinct: a site key (traces, the lab's output, the low-latency site table) is
   * spelled in one place.
   */
  @Test
  void everyLoopIsAtASiteConstantDeclaredOnce() throws IllegalAccessException {
    List<Site> constants = new ArrayList<>();
    for (Class<?> c : List.of(
        Block.class, Console.class, Rtc.class, Buffer.class, Dcache.class, Ext2.class, Inode.class, Pipe.class,
        Proc.class, Super.class, Syscalls.class, Exit.class, Fork.class, Timer.class, Filemap.class,
        Memory.class, Swapfile.class, Vmscan.class, Slab.class, Net.class, dev.kernellab.paths.arch.Apm.class,
        dev.kernellab.paths.fs.Execve.class, dev.kernellab.paths.fs.Readdir.class)) {
      for (Field f : c.getDeclaredFields()) {
        if (f.getType() == Site.class && Modifier.isStatic(f.getModifiers())) {
          constants.add((Site) f.get(null));
        }
      }
    }
    assertThat(constants).doesNotHaveDuplicates();
    for (Site s : Kernel24Paths.allSites()) {
      assertThat(constants).as("a constant for %s", s).contains(s);
      assertThat(constants.get(constants.indexOf(s))).as("the loop's own site object").isSameAs(s);
    }
  }

  @Test
  void everyConfigurationsSitesAreDeclaredSoAPatchMayHookCodeThisOneLeavesOut() {
    // The VGA default runs no fbcon code, so its catalog has no putcs loop; the framebuffer
    // configuration does, and a patch hunk there (low-latency's fbcon_cfb16_putcs) must name a
    // site the builder knows in either configuration.
    Kernel24Paths fb = new Kernel24Paths(PathParams.defaults().withFramebufferConsole());
    assertThat(catalog.sites()).doesNotContain(Console.PUTCS);
    assertThat(fb.sites()).contains(Console.PUTCS);
    assertThat(Kernel24Paths.allSites()).doesNotHaveDuplicates()
        .containsAll(catalog.sites()).containsAll(fb.sites());
    assertThat(Kernel24Paths.allSites()).hasSize(
        (int) java.util.stream.Stream.concat(catalog.sites().stream(), fb.sites().stream()).distinct().count());
  }

  @Test
  void twoCatalogsShareNoLocksOrDriverState() {
    Kernel24Paths other = Kernel24Paths.withDefaults();
    for (int i = 0; i < catalog.locks().all().size(); i++) {
      assertThat(other.locks().all().get(i)).isNotSameAs(catalog.locks().all().get(i));
    }
    assertThat(other.rtc().rtcWait).isNotSameAs(catalog.rtc().rtcWait);
    assertThat(other.vmscan().kswapdWait).isNotSameAs(catalog.vmscan().kswapdWait);
    assertThat(other.buffer().bdflushWait).isNotSameAs(catalog.buffer().bdflushWait);
  }

  @Test
  void vanillaReschedulePointsSitInsideTheirLoops() {
    assertThat(String.join("\n", catalog.filemap().truncateListPages.listing()))
        .contains("loop mm/filemap.c:truncate_list_pages", "cond_resched()");
    assertThat(String.join("\n", catalog.filemap().invalidateListPages2.listing()))
        .contains("cond_resched_lock(&pagecache_lock)");
    assertThat(String.join("\n", catalog.vmscan().shrinkCache.listing()))
        .contains("cond_resched_lock(&pagemap_lru_lock)");
    assertThat(String.join("\n", catalog.vmscan().swapOut.listing())).contains("cond_resched()");
    assertThat(String.join("\n", catalog.vmscan().kswapdBalancePgdat.listing())).contains("cond_resched()");
    assertThat(String.join("\n", catalog.swapfile().tryToUnuse.listing())).contains("cond_resched()");
  }

  @Test
  void unpatchedPathsHaveNoReschedulePoint() {
    assertThat(String.join("\n", catalog.memory().exitMmap.listing())).doesNotContain("cond_resched");
    assertThat(String.join("\n", catalog.dcache().pruneDcache.listing())).doesNotContain("cond_resched");
    assertThat(String.join("\n", catalog.console().printk.listing())).doesNotContain("cond_resched");
  }

  /**
   * kernel/printk.c 2.4.17: printk formats under logbuf_lock taken with spin_lock_irqsave and
   * restores the flags before release_console_sem calls the console drivers; only the
   * console_sem winner draws.
   */
  @Test
  void printkDrawsWithInterruptsRestoredAndConsoleSemHeld() {
    String listing = String.join("\n", catalog.console().printk.listing());
    assertThat(listing)
        .contains("spin_lock_irqsave(&logbuf_lock)", "if (!down_trylock(&console_sem)) release_console_sem()")
        .doesNotContain("local_irq_save");
    assertThat(listing.indexOf("spin_unlock_irqrestore(&logbuf_lock)"))
        .isLessThan(listing.indexOf("release_console_sem"));
  }

  @Test
  void lockNamesResolveToThisCatalogsLocks() {
    assertThat(catalog.locks().byName("dcache_lock")).isSameAs(catalog.locks().dcacheLock);
  }

  /** Every typed key stands for the lock of its name, one key per lock, in the same order. */
  @Test
  void eachCatalogLockKeyIsTheLockOfItsName() {
    Locks locks = catalog.locks();
    assertThat(locks.get(CatalogLock.DCACHE_LOCK)).isSameAs(locks.dcacheLock);
    for (CatalogLock key : CatalogLock.values()) {
      assertThat(locks.get(key).name()).as("%s", key).isEqualTo(key.kernelName());
      assertThat(locks.byName(key.kernelName())).isSameAs(locks.get(key));
    }
    assertThat(java.util.Arrays.stream(CatalogLock.values()).map(locks::get).toList())
        .containsExactlyElementsOf(locks.all());
    assertThat(new Locks().get(CatalogLock.DCACHE_LOCK)).as("per kernel").isNotSameAs(locks.dcacheLock);
  }

  @Test
  void tablePrintsARowPerEntryAndASiteTable() throws IOException {
    List<String> paths = CatalogTable.paths(catalog);
    List<String> sites = CatalogTable.sites(catalog, List.of());
    assertThat(paths).hasSize(catalog.entries().size() + 2);
    assertThat(sites).hasSize(catalog.sites().size() + 2);
    assertThat(String.join("\n", sites))
        .contains("| mm/filemap.c:truncate_list_pages | need_resched test |");
    Path out = Path.of("target", "catalog-table.md");
    Files.createDirectories(out.getParent());
    List<String> all = new ArrayList<>(paths);
    all.add("");
    all.addAll(sites);
    Files.write(out, all, StandardCharsets.UTF_8);
  }

  @Test
  void durationsReadInTheUnitThatFits() {
    assertThat(CatalogTable.duration(450)).isEqualTo("450 ns");
    assertThat(CatalogTable.duration(12_340)).isEqualTo("12.3 us");
    assertThat(CatalogTable.duration(35_000_000)).isEqualTo("35.00 ms");
  }
}
