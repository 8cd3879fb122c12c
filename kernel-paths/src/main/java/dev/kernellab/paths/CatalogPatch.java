package dev.kernellab.paths;

import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.Site;
import java.util.Optional;

/**
 * A {@link KernelPatch} that changes the sites of a {@link Kernel24Paths} catalog and needs
 * that kernel's catalog to do so (a lock break must drop the very {@code SpinLock} the path
 * holds, and locks are per kernel). It finds the catalog when it is applied, as the one
 * {@link Kernel24Paths#install} attached to the builder
 * ({@code Patching#attachment(Kernel24Paths.class)}).
 *
 * <p>What it does at each site is also what the site table shows ({@link CatalogTable#sites},
 * {@code kernel-lab list sites}, which gives a column to every registered patch that is a
 * {@code CatalogPatch}), and the patch contract checks that it names exactly the sites the
 * patch hooks.
 *
 * <p>Implementations: {@code LowLatencyPatch} (module lowlatency), {@code LockBreakPatch}
 * (module lockbreak).
 */
public interface CatalogPatch extends KernelPatch {

  /**
   * What this patch does at {@code site}, in one line, or empty if it leaves it alone; answered
   * without a kernel, so that a listing can ask a patch the registry has just created.
   */
  Optional<String> change(Site site);
}
