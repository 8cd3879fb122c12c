package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.Patching;
import dev.kernellab.kernel.spi.Site;
/**
 * A test patch that hooks one site with a reschedule point or a lock break, standing in for
 * the lowlatency module in kernel-core's own tests. Published in the test-jar.
 */
public final class SiteHookPatch implements KernelPatch {

  private final Site site;
  private final SpinLock lock; // null: cond_resched; else lock break on it

  private SiteHookPatch(Site site, SpinLock lock) {
    this.site = site;
    this.lock = lock;
  }

  /** {@code cond_resched()} between the iterations of loops at {@code site}. */
  public static SiteHookPatch condResched(Site site) {
    return new SiteHookPatch(site, null);
  }

  /** A lock break of {@code lock} between the iterations of loops at {@code site}. */
  public static SiteHookPatch lockBreak(Site site, SpinLock lock) {
    return new SiteHookPatch(site, lock);
  }

  @Override
  public String name() {
    // A site key has '/', '.', ':' and '#', which a patch name may not.
    return "test-hook-" + site.key().toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9_]+", "-");
  }

  @Override
  public void apply(Patching k) {
    KernelPath.Builder hook = KernelPath.path(site.file(), site.function() + "/hook");
    if (lock == null) {
      hook.condResched();
    } else {
      hook.condReschedLock(lock, 0);
    }
    k.hookSite(site, hook.build());
  }
}
