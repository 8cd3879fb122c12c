package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.Site;
import java.util.Map;

/**
 * What a kernel's patches hooked at one {@link Site}, remembered by the loop or point that
 * names the site, so that entering the loop does not look the site up in the kernel's map each
 * time.
 */
final class SiteHook {

  /*
   * Implementation overview
   *
   * The hooks are fixed when a kernel is built (Kernel.siteHooks, read only), so a site's hook
   * is the same at every entry into a kernel. An operation may be shared by kernels (a test's
   * paths run on several kernels in turn, or at once on several threads of a sweep), so the
   * answer is kept with the map it came from, in one immutable object read and written as one
   * reference: a thread sees its own kernel's answer or looks it up again. Kernels that do not
   * share paths (the lab composes a catalog per run) look a site up once.
   */

  private final Site site;
  private Resolved last; // the last kernel's answer; null before the first entry

  private record Resolved(Map<Site, KernelPath> hooks, KernelPath hook) {}

  SiteHook(Site site) {
    this.site = site;
  }

  /** The hook {@code k} runs at the site, or null where none. */
  KernelPath in(Kernel k) {
    Resolved r = last;
    if (r == null || r.hooks() != k.siteHooks()) {
      r = new Resolved(k.siteHooks(), k.siteHook(site));
      last = r;
    }
    return r.hook();
  }
}
