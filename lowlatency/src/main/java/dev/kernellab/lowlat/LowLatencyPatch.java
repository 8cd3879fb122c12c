package dev.kernellab.lowlat;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.CondReschedLock.Then;
import dev.kernellab.kernel.CondReschedLock.When;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.Patching;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.Sysctl;
import dev.kernellab.paths.CatalogLock;
import dev.kernellab.paths.CatalogPatch;
import dev.kernellab.paths.Kernel24Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Models Andrew Morton's low-latency patch for 2.4 (include/linux/low-latency.h and its hunks,
 * as applied to 2.4.32: see {@link LowLatencySites} for the copy followed): at each
 * site of {@link LowLatencySites}, a conditional reschedule point or a lock break runs between
 * the loop's iterations. The run-time switch {@code /proc/sys/kernel/lowlatency}
 * ({@code enable_lowlatency}) gates only the counted tests ({@code TEST_RESCHED_COUNT}): in the
 * non-debug build {@code conditional_schedule_needed()} is {@code current->need_resched}
 * alone, so every other hunk stays on with the switch at 0.
 *
 * <pre>{@code
 * Kernel24Paths paths = Kernel24Paths.withDefaults();
 * paths.install(builder);                          // attaches the catalog to the builder
 * builder.patch("lowlat");                         // found by name, finds paths' locks
 * builder.patch(new LowLatencyPatch(paths));       // or directly
 * builder.patch(LowLatencyPatch.forSites(myTable, paths.locks()::get));   // an experiment
 * }</pre>
 *
 * <p>Registered as {@value #NAME}. A lock break must drop the very lock the kernel's path
 * holds, and locks belong to one kernel's catalog: the instance the registry creates finds the
 * catalog attached to the builder ({@link Kernel24Paths#install}) when it is applied.
 */
public final class LowLatencyPatch implements CatalogPatch {

  /*
   * Implementation overview
   *
   * The patch does not edit paths: for each PatchedSite it builds a small hook path and hooks
   * it on the site (Patching.hookSite), so every loop at that site, in every path
   * of the catalog, runs it between iterations. A conditional schedule is kernel-core's
   * cond_resched(), behind the count and the sysctl when the hunk is TEST_RESCHED_COUNT's
   * (ext2_free_data's). A lock break is kernel-core's one lock-break primitive,
   * condReschedLock(listing, locks, when, then, revalidateNs), which drops every lock the loop
   * holds, innermost first, runs `then`, retakes them outermost first and pays the
   * revalidation; when `when` says no, nothing is touched. What is the patch's own is the test
   * and what runs with the locks dropped, by cadence (include/linux/low-latency.h [1]):
   *
   *   cadence             when                                then
   *   EVERY_ITERATION     need_resched                        unconditional_schedule()
   *   TEST_RESCHED_COUNT  enable_lowlatency, every n + 1,     unconditional_schedule()
   *                       then need_resched
   *   CHUNK               every n, due or not                 conditional_schedule()
   *
   * The first two are the patch's `if (need_resched) { spin_unlock(&l);
   * unconditional_schedule(); spin_lock(&l); }`: schedule() is called whatever happened at the
   * unlock, which under CONFIG_PREEMPT may already have preempted and cleared need_resched. The
   * chunked form is its zap_page_range (mm/memory.c), which unlocks and flushes the TLB every
   * 256 pages and then calls conditional_schedule(). The primitive releases the lock through
   * the kernel's normal unlock, so preempt_count drops and, with the preempt patch, the break
   * is itself a preemption point: the two patches compose without knowing each other, and the
   * break shortens the preempt-off region (docs/golden-scenarios.md, the four configurations:
   * "both").
   *
   * [1] include/linux/low-latency.h and mm/memory.c of the patch as applied to 2.4.32
   *     (LowLatencySites names the copy).
   */

  /** The name the patch is registered under. */
  public static final String NAME = "lowlat";

  /** The version of Morton's patch the model follows, as the {@code @Models} of this module name it. */
  public static final String VERSION = "low-latency 2.4 (2.4.32 copy)";
  /** The sysctl of CONFIG_LOLAT_SYSCTL. */
  public static final String SYSCTL = "kernel/lowlatency";

  private final String name;
  private final List<PatchedSite> table;
  private final Optional<Function<CatalogLock, SpinLock>> locks; // empty: the attached catalog's
  private final boolean enabledAtBoot;

  /**
   * The patch for {@code catalog}'s kernel, switched on at boot (as the patched kernels of
   * the 2002 measurements ran it; CONFIG_LOLAT without the sysctl is always on).
   */
  public LowLatencyPatch(Kernel24Paths catalog) {
    this(NAME, LowLatencySites.TABLE, Optional.of(catalog.locks()::get), true);
  }

  private LowLatencyPatch(String name, List<PatchedSite> table,
      Optional<Function<CatalogLock, SpinLock>> locks, boolean enabledAtBoot) {
    this.name = name;
    this.table = List.copyOf(table);
    this.locks = locks;
    this.enabledAtBoot = enabledAtBoot;
  }

  /**
   * The patch as the registry creates it: it uses the {@link Kernel24Paths} attached to the
   * builder it is applied to.
   */
  public static LowLatencyPatch unbound() {
    return new LowLatencyPatch(NAME, LowLatencySites.TABLE, Optional.empty(), true);
  }

  /**
   * The patch's mechanism with another site table, for experiments and hand-worked
   * scenarios: the hooks, the sysctl and the lock breaks work as for the real table;
   * {@code locks} gives the lock each catalog lock of the table stands for in the kernel built
   * ({@code paths.locks()::get}, or a hand-worked scenario's own lock).
   */
  public static LowLatencyPatch forSites(List<PatchedSite> table, Function<CatalogLock, SpinLock> locks) {
    return new LowLatencyPatch(NAME, table, Optional.of(locks), true);
  }

  /**
   * The same patch with {@code /proc/sys/kernel/lowlatency} at {@code on} at boot
   * (CONFIG_LOLAT_SYSCTL's default is 0).
   */
  public LowLatencyPatch enabledAtBoot(boolean on) {
    return new LowLatencyPatch(name, table, locks, on);
  }

  /**
   * The same mechanism under another name, with its own switch {@code kernel/<name>}: so that
   * an experiment's table can be applied beside the real {@value #NAME} (two patches of one
   * name, or one sysctl registered twice, are refused by the builder, as is a name that breaks
   * {@link KernelPatch#name()}'s rule).
   */
  public LowLatencyPatch named(String patchName) {
    return new LowLatencyPatch(Objects.requireNonNull(patchName, "patchName"), table, locks, enabledAtBoot);
  }

  /** The run-time switch this patch registers: {@value #SYSCTL} for {@value #NAME}. */
  public String sysctlName() {
    return name.equals(NAME) ? SYSCTL : "kernel/" + name;
  }

  /** The sites this patch changes, with what it does at each. */
  public List<PatchedSite> table() {
    return table;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void apply(Patching kernel) {
    Function<CatalogLock, SpinLock> resolve =
        locks
            .or(() -> kernel.attachment(Kernel24Paths.class).map(p -> p.locks()::get))
            .orElseThrow(() -> new IllegalStateException(
                "lowlat breaks the locks of one kernel's kernel-paths catalog and this kernel has"
                    + " none: install a Kernel24Paths on the builder first (paths.install(builder))"));
    Sysctl gate = kernel.sysctl(sysctlName(), enabledAtBoot);
    for (PatchedSite ps : table) {
      kernel.hookSite(ps.site(), hook(ps, resolve, gate));
    }
  }

  /**
   * The hook path the patch runs between iterations at {@code ps}'s site: kernel-core's
   * {@code cond_resched()} for a conditional schedule; for a lock break, kernel-core's
   * {@code cond_resched_lock} primitive with the patch's own test and what runs with the locks
   * dropped (see the implementation overview).
   */
  @Models(file = "include/linux/low-latency.h", function = "conditional_schedule",
      version = LowLatencyPatch.VERSION)
  @Models(file = "include/linux/low-latency.h", function = "unconditional_schedule",
      version = LowLatencyPatch.VERSION)
  @Models(file = "include/linux/low-latency.h", function = "TEST_RESCHED_COUNT",
      version = LowLatencyPatch.VERSION)
  static KernelPath hook(PatchedSite ps, Function<CatalogLock, SpinLock> locks, Sysctl gate) {
    Site s = ps.site();
    KernelPath.Builder b = KernelPath.path(s.file(), s.function() + "/" + ps.technique().kernelName());
    When enabled = (cpu, iterations) -> gate.get(); // enable_lowlatency
    if (ps.technique() == Technique.CONDITIONAL_SCHEDULE) {
      return ps.gated()
          ? b.condResched("conditional_schedule(), every " + ps.period() + " [" + gate.name() + "]",
              enabled.and(When.every(ps.period()))).build()
          : b.condResched().build();
    }
    List<SpinLock> held = new ArrayList<>();
    ps.locks().forEach(key -> held.add(locks.apply(key)));
    String names = "&" + String.join(", &", held.stream().map(SpinLock::name).toList());
    return switch (ps.cadence()) {
      case EVERY_ITERATION -> b.condReschedLock("cond_resched_lock(" + names + ")", held,
          When.needResched(), Then.SCHEDULE, ps.revalidateNs()).build();
      case TEST_RESCHED_COUNT -> {
        yield b.condReschedLock(
            "cond_resched_lock(" + names + ", every " + ps.period() + ") [" + gate.name() + "]", held,
            enabled.and(When.every(ps.period())).and(When.needResched()), Then.SCHEDULE, ps.revalidateNs())
            .build();
      }
      case CHUNK -> b.condReschedLock(
          "unlock(" + names + "); conditional_schedule(); relock, every " + ps.period(), held,
          When.every(ps.period()), Then.COND_RESCHED, ps.revalidateNs()).build();
    };
  }

  @Override
  public Optional<String> change(Site site) {
    for (PatchedSite ps : table) {
      if (ps.site().equals(site)) {
        return Optional.of(ps.describe());
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return name + (locks.isPresent() ? "" : " (catalog from the builder)");
  }
}
