package dev.kernellab.paths;

import dev.kernellab.kernel.KernelPatch;
import dev.kernellab.kernel.Site;
import java.util.Optional;

/**
 * A {@link KernelPatch} that changes the sites of a {@link Kernel24Paths} catalog and needs
 * that kernel's catalog to do so (a lock break must drop the very {@code SpinLock} the path
 * holds, and locks are per kernel). A patch found by name is unbound;
 * {@link Kernel24Paths#patch} binds it to the catalog before giving it to the builder.
 *
 * <p>Implementations: {@code LowLatencyPatch} (module lowlatency).
 */
public interface CatalogPatch extends KernelPatch {

  /** This patch, bound to {@code catalog}'s locks. */
  KernelPatch bind(Kernel24Paths catalog);

  /** What this patch does at {@code site}, in one line, or empty if it leaves it alone. */
  Optional<String> change(Site site);
}
