package dev.kernellab.kernel.spi;

/**
 * What a plug-in sees of an address space ({@code struct mm_struct}, include/linux/sched.h,
 * 2.4.17), read-only: its identity (2.4's goodness() gives a task that shares the previous
 * task's mm a bonus, since switching to it flushes no TLB), its users and its size.
 */
public interface MmView {

  /** A number that names this address space in traces. */
  int id();

  /** {@code mm_users}: the tasks sharing this address space. */
  int users();

  /** {@code rss}: pages resident. */
  long residentPages();
}
