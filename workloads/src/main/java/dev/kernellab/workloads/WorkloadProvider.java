package dev.kernellab.workloads;

import dev.kernellab.kernel.spi.Registry;

/**
 * Registers a {@link Workload} under a name, found through {@link Workloads#REGISTRY}: a module
 * lists its providers in {@code META-INF/services/dev.kernellab.workloads.WorkloadProvider}.
 * This module registers the six of {@link Workloads}; a plug-in's are listed after them.
 */
public interface WorkloadProvider extends Registry.Provider {

  /** The name the command line uses ({@code stress}, {@code dbench}...). */
  @Override
  String name();

  /** One line: what runs. */
  String description();

  /** A new instance of the workload, with its defaults. */
  Workload create();
}
