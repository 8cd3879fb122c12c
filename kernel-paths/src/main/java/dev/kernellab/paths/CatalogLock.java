package dev.kernellab.paths;

import dev.kernellab.kernel.SpinLock;

/**
 * The global locks of the catalog ({@link Locks}) as a type: how a table written before any
 * kernel exists (a patch's hunks) names the locks it breaks, so that a typo is a compile error
 * rather than a failed look-up when the patch is applied. {@link Locks#get} gives the lock of
 * one kernel's catalog.
 *
 * <pre>{@code
 * PatchedSite.lbCounted(Dcache.PRUNE_DCACHE, List.of(CatalogLock.DCACHE_LOCK), 100, 0, ...);
 * SpinLock l = paths.locks().get(CatalogLock.DCACHE_LOCK);   // the same as locks().dcacheLock
 * }</pre>
 */
public enum CatalogLock {
  /** {@code kernel_flag}, the big kernel lock. */
  KERNEL_FLAG("kernel_flag"),
  /** {@code pagecache_lock}. */
  PAGECACHE_LOCK("pagecache_lock"),
  /** {@code pagemap_lru_lock}. */
  PAGEMAP_LRU_LOCK("pagemap_lru_lock"),
  /** {@code mm->page_table_lock}. */
  PAGE_TABLE_LOCK("page_table_lock"),
  /** {@code lru_list_lock}. */
  LRU_LIST_LOCK("lru_list_lock"),
  /** {@code dcache_lock}. */
  DCACHE_LOCK("dcache_lock"),
  /** {@code inode_lock}. */
  INODE_LOCK("inode_lock"),
  /** {@code swaplock}. */
  SWAPLOCK("swaplock"),
  /** {@code tasklist_lock}, an rwlock. */
  TASKLIST_LOCK("tasklist_lock"),
  /** {@code logbuf_lock}. */
  LOGBUF_LOCK("logbuf_lock"),
  /** {@code rtc_lock}. */
  RTC_LOCK("rtc_lock"),
  /** {@code io_request_lock}. */
  IO_REQUEST_LOCK("io_request_lock");

  private final String kernelName;

  CatalogLock(String kernelName) {
    this.kernelName = kernelName;
  }

  /** The lock's name in the kernel source, as {@link SpinLock#name()} of the lock it stands for. */
  public String kernelName() {
    return kernelName;
  }
}
