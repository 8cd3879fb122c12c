/**
 * Timing models of the Linux 2.4.17 file-system code the loads exercise: fs/buffer.c
 * ({@code write_some_buffers()}, bdflush, kupdate, {@code fsync_buffers_list()},
 * {@code invalidate_bdev()}), fs/dcache.c ({@code prune_dcache()}, {@code select_parent()}),
 * fs/inode.c ({@code prune_icache()}, {@code invalidate_list()}), fs/super.c
 * ({@code do_umount()}), fs/pipe.c, fs/proc/array.c ({@code statm_pte_range()}), and the
 * everyday calls of fs/read_write.c, fs/open.c, fs/namei.c and fs/select.c. {@code PageCache}
 * and {@code VfsFile} model the page cache and the parts of {@code struct inode} and its
 * {@code address_space} (include/linux/fs.h) that decide whether a read goes to the disk and how
 * much writeback there is. {@code FileIo} carries a file system call's arguments, so that a path
 * loops over exactly the pages the call names.
 */
package dev.kernellab.paths.fs;
