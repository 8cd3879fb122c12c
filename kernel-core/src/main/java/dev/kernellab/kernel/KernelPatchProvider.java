package dev.kernellab.kernel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * Registers a {@link KernelPatch} under a name, found through {@link ServiceLoader}: a patch
 * module lists its provider in {@code META-INF/services/dev.kernellab.kernel.KernelPatchProvider}.
 */
public interface KernelPatchProvider {

  /** The name users pass ({@code "preempt"}, {@code "lowlat"}). */
  String name();

  /** One line on what the patch models. */
  String description();

  /** A fresh patch instance. */
  KernelPatch create();

  /** Every provider on the class path, sorted by name; duplicate names are an error. */
  static List<KernelPatchProvider> all() {
    List<KernelPatchProvider> list = new ArrayList<>();
    ServiceLoader.load(KernelPatchProvider.class).forEach(list::add);
    list.sort(Comparator.comparing(KernelPatchProvider::name));
    for (int i = 1; i < list.size(); i++) {
      if (list.get(i).name().equals(list.get(i - 1).name())) {
        throw new IllegalStateException("two patches registered as '" + list.get(i).name() + "'");
      }
    }
    return list;
  }

  /**
   * Creates the patch registered as {@code name}.
   *
   * @throws IllegalArgumentException naming the known patches if there is none such
   */
  static KernelPatch create(String name) {
    List<KernelPatchProvider> all = all();
    for (KernelPatchProvider p : all) {
      if (p.name().equals(name)) {
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
    throw new IllegalArgumentException(
        "unknown patch '" + name + "'; known: "
            + (all.isEmpty()
                ? "none on the class path"
                : all.stream().map(KernelPatchProvider::name).collect(Collectors.joining(", "))));
  }
}
