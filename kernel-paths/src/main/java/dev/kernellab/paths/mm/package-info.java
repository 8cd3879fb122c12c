/**
 * Timing models of the memory-management paths (Andrea Arcangeli's VM): {@code Memory} (unmapping
 * and copying page tables under {@code page_table_lock}), {@code Vmscan} (kswapd, the page-cache
 * shrink and the walk of page tables to swap out), {@code Filemap} (file reads, writes and
 * truncation), {@code Slab} (reaping the slab caches) and {@code Swapfile} (swapoff and the
 * /proc/meminfo walk). The loops that vanilla 2.4.17 already broke on {@code need_resched} keep
 * that test here (docs/lowlatency-sites.md, Vanilla 2.4.17).
 *
 * <p>Models Linux 2.4.17: mm/memory.c, mmap.c, vmscan.c, filemap.c, slab.c, swapfile.c and
 * page_alloc.c, with the callers in kernel/fork.c and fs/ that reach them (each function in
 * docs/xref.md).
 *
 * <p>Start reading with {@code Memory}: {@code zap_page_range()} is the preempt kernel's worst
 * case under the stress load. Then {@code Vmscan}.
 */
package dev.kernellab.paths.mm;
