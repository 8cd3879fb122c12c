/**
 * Timing models of the Linux 2.4.17 memory-management paths (Andrea Arcangeli's VM):
 * {@code Filemap} (mm/filemap.c {@code do_generic_file_read()}, {@code generic_file_write()},
 * {@code truncate_list_pages()}, {@code invalidate_inode_pages()}), {@code Memory} (mm/memory.c
 * {@code zap_page_range()} and {@code copy_page_range()} with their callers in mm/mmap.c and
 * kernel/fork.c, under {@code page_table_lock}), {@code Swapfile} (mm/swapfile.c
 * {@code try_to_unuse()}, {@code si_swapinfo()}, {@code get_swaparea_info()}) and {@code Vmscan}
 * (mm/vmscan.c kswapd, {@code shrink_cache()}, {@code swap_out()} to {@code swap_out_pmd()}, and
 * mm/page_alloc.c {@code __alloc_pages()} waking kswapd). The loops that vanilla 2.4.17 already
 * broke on {@code need_resched} keep that test here (docs/lowlatency-sites.md, Vanilla 2.4.17).
 */
package dev.kernellab.paths.mm;
