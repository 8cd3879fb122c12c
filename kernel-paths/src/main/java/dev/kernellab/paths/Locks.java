package dev.kernellab.paths;

import dev.kernellab.kernel.SpinLock;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The global spinlocks of a 2.4.17 kernel that the catalog's paths take, one set per kernel;
 * {@link CatalogLock} names them as a type, for tables written before a kernel exists.
 *
 * <p>Models the lock declarations of mm/filemap.c, mm/swapfile.c, fs/buffer.c, fs/dcache.c,
 * fs/inode.c, kernel/printk.c, drivers/char/rtc.c and drivers/block/ll_rw_blk.c (2.4.17).
 * A {@link SpinLock} carries holder state and hold statistics, so two kernels never share one:
 * every {@link Kernel24Paths} makes its own {@code Locks}.
 *
 * <p>Lock order (the catalog takes nested locks only in this order, which the kernel's lock
 * order check enforces): {@code kernel_flag} before everything; {@code pagemap_lru_lock}
 * before {@code pagecache_lock} (mm/vmscan.c {@code shrink_cache} and mm/filemap.c
 * {@code invalidate_inode_pages} both nest them so).
 */
public final class Locks {

  /** {@code kernel_flag}: the big kernel lock ({@code lock_kernel()}). */
  public final SpinLock kernelFlag = SpinLock.bigKernelLock();
  /** {@code pagecache_lock}: the page cache hash and the per-mapping page lists. */
  public final SpinLock pagecacheLock = SpinLock.spin("pagecache_lock");
  /** {@code pagemap_lru_lock}: the active and inactive LRU lists. */
  public final SpinLock pagemapLruLock = SpinLock.spin("pagemap_lru_lock");
  /**
   * {@code mm->page_table_lock}. One stands for every mm: on one CPU only the running task's
   * mm is ever walked, and the model has no per-mm object to hang it on.
   */
  public final SpinLock pageTableLock = SpinLock.spin("page_table_lock");
  /** {@code lru_list_lock}: the buffer-head LRU lists of fs/buffer.c. */
  public final SpinLock lruListLock = SpinLock.spin("lru_list_lock");
  /** {@code dcache_lock}. */
  public final SpinLock dcacheLock = SpinLock.spin("dcache_lock");
  /** {@code inode_lock}. */
  public final SpinLock inodeLock = SpinLock.spin("inode_lock");
  /** {@code swaplock} (mm/swapfile.c {@code swap_list_lock()}). */
  public final SpinLock swapLock = SpinLock.spin("swaplock");
  /** {@code tasklist_lock}, an rwlock. */
  public final SpinLock tasklistLock = SpinLock.readerWriter("tasklist_lock");
  /** {@code logbuf_lock} of kernel/printk.c. */
  public final SpinLock logbufLock = SpinLock.spin("logbuf_lock");
  /** {@code rtc_lock}. */
  public final SpinLock rtcLock = SpinLock.spin("rtc_lock");
  /** {@code io_request_lock}: the block request queues, taken with interrupts off. */
  public final SpinLock ioRequestLock = SpinLock.spin("io_request_lock");

  /** Every lock, in the order above. */
  public List<SpinLock> all() {
    return List.of(
        kernelFlag, pagecacheLock, pagemapLruLock, pageTableLock, lruListLock, dcacheLock,
        inodeLock, swapLock, tasklistLock, logbufLock, rtcLock, ioRequestLock);
  }

  /** The lock {@code key} stands for, in this catalog. */
  public SpinLock get(CatalogLock key) {
    return switch (key) {
      case KERNEL_FLAG -> kernelFlag;
      case PAGECACHE_LOCK -> pagecacheLock;
      case PAGEMAP_LRU_LOCK -> pagemapLruLock;
      case PAGE_TABLE_LOCK -> pageTableLock;
      case LRU_LIST_LOCK -> lruListLock;
      case DCACHE_LOCK -> dcacheLock;
      case INODE_LOCK -> inodeLock;
      case SWAPLOCK -> swapLock;
      case TASKLIST_LOCK -> tasklistLock;
      case LOGBUF_LOCK -> logbufLock;
      case RTC_LOCK -> rtcLock;
      case IO_REQUEST_LOCK -> ioRequestLock;
    };
  }

  /**
   * The lock with kernel name {@code name}.
   *
   * @throws NoSuchElementException naming the known locks
   */
  public SpinLock byName(String name) {
    for (SpinLock l : all()) {
      if (l.name().equals(name)) {
        return l;
      }
    }
    throw new NoSuchElementException(
        "no lock '" + name + "' in the 2.4.17 catalog; known: " + all());
  }
}
