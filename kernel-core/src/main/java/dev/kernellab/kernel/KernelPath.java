package dev.kernellab.kernel;

/** Placeholder replaced by the kernel-path language in the next commit. */
public final class KernelPath {
  private KernelPath() {}
}
