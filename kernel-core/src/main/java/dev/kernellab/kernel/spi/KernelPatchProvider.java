package dev.kernellab.kernel.spi;

import java.util.List;

/**
 * Registers a {@link KernelPatch} under a name, found through the {@link Registry}
 * {@link #REGISTRY}: a patch module lists its provider in
 * {@code META-INF/services/dev.kernellab.kernel.spi.KernelPatchProvider}.
 */
public interface KernelPatchProvider extends Registry.Provider {

  /** Every registered patch, sorted by name. */
  Registry<KernelPatchProvider> REGISTRY = Registry.sorted("patch", KernelPatchProvider.class);

  /** The name users pass ({@code "preempt"}, {@code "lowlat"}). */
  @Override
  String name();

  /** One line on what the patch models. */
  String description();

  /** A fresh patch instance. */
  KernelPatch create();

  /**
   * Every provider on the class path, sorted by name ({@link Registry#all()}).
   *
   * @throws IllegalStateException if two have one name
   */
  static List<KernelPatchProvider> all() {
    return REGISTRY.all();
  }

  /**
   * Creates the patch registered as {@code name}.
   *
   * @throws IllegalArgumentException naming the known patches if there is none such
   */
  static KernelPatch create(String name) {
    KernelPatchProvider p = REGISTRY.get(name);
    KernelPatch patch = p.create();
    if (!patch.name().equals(name)) {
      // a provider registered under one name that makes patches of another would apply
      // something other than what the configuration says
      throw new IllegalStateException("patch provider " + p.getClass().getName() + " is registered as '" + name
          + "' but creates patch '" + patch.name() + "'");
    }
    return patch;
  }
}
