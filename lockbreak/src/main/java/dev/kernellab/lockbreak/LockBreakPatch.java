package dev.kernellab.lockbreak;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.spi.Patching;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.CatalogPatch;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.Locks;
import java.util.List;
import java.util.Optional;

/**
 * Models Robert Love's lock-break patch for 2.4 (lock-break-rml-2.4.17-2 and -2.4.18-1,
 * include/linux/lock_break.h): at each site of {@link LockBreakSites}, between two iterations of
 * the walk, the hunk's test and {@code break_spin_lock} ({@link BreakSpinLock}). Registered as
 * {@value #NAME}.
 *
 * <p>Love built it for use with his preempt-kernel patch (CONFIG_LOCK_BREAK depends on
 * CONFIG_PREEMPT), as the lighter alternative to Morton's low-latency patch: a dropped lock is a
 * preemption point only when preemption is on, so the patch {@linkplain #requires() requires}
 * {@code preempt}; and it rewrites several of the walks low-latency rewrites, so the two
 * {@linkplain #conflicts() conflict}. It uses only public seams: the catalog attached to the
 * builder ({@link Kernel24Paths#install}) for the locks, {@link
 * Patching#hookSite} for the hunks, and kernel-core's lock-break primitive
 * ({@link dev.kernellab.kernel.CondReschedLock}) with its own test and macro for the breaks.
 *
 * <pre>{@code
 * KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor(), 1).scheduler("goodness");
 * Kernel24Paths.withDefaults().install(b);
 * b.patch("preempt").patch("lockbreak");
 * }</pre>
 */
@Models(file = "include/linux/lock_break.h", function = "break_spin_lock", version = LockBreakPatch.VERSION)
public final class LockBreakPatch implements CatalogPatch {

  /** The name the patch is registered under. */
  public static final String NAME = "lockbreak";

  /** The version of Love's patch the model follows, as the {@code @Models} of this module name it. */
  public static final String VERSION = "lock-break-rml 2.4.17/2.4.18 (MontaVista trees)";

  private final List<BrokenSite> table;

  /** The patch with its table of sites. */
  public LockBreakPatch() {
    this(LockBreakSites.TABLE);
  }

  /** The patch's mechanism with another table of sites, for experiments. */
  public LockBreakPatch(List<BrokenSite> table) {
    this.table = List.copyOf(table);
  }

  /** The hunks this patch applies. */
  public List<BrokenSite> table() {
    return table;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<String> requires() {
    return List.of("preempt");
  }

  @Override
  public List<String> conflicts() {
    return List.of("lowlat");
  }

  @Override
  public void apply(Patching kernel) {
    Kernel24Paths catalog = kernel.attachment(Kernel24Paths.class).orElseThrow(() -> new IllegalStateException(
        "lockbreak breaks the locks of a kernel-paths catalog and this kernel has none: install a"
            + " Kernel24Paths on the builder first (paths.install(builder))"));
    for (BrokenSite s : table) {
      kernel.hookSite(s.site(), BreakSpinLock.hook(s, s.locks().apply(catalog.locks())));
    }
  }

  /**
   * The hunk at {@code site} in one line, as {@code kernel-lab list sites} shows it: the macro,
   * the locks by their kernel names, the test and the count, what the walk costs to pick up.
   */
  @Override
  public Optional<String> change(Site site) {
    for (BrokenSite s : table) {
      if (s.site().equals(site)) {
        // lock names only: a Locks of its own, as no kernel is being built
        if (s.macro() == Macro.CONDITIONAL_SCHEDULE) {
          return Optional.of(s.macro().kernelName()); // tests need_resched itself, breaks no lock
        }
        List<String> locks = s.locks().apply(new Locks()).stream().map(SpinLock::name).toList();
        return Optional.of(s.macro().kernelName() + " (" + String.join(", ", locks) + ")"
            + (s.onlyIfNeedResched() ? " if need_resched" : "") + (s.every() > 1 ? ", every " + s.every() : "")
            + ", +" + s.revalidateNs() + " ns");
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return NAME;
  }
}
