/**
 * Timing models of the file-system code the loads exercise: the buffer cache and its flushing
 * daemons ({@code Buffer}), the dentry and inode caches and their pruning ({@code Dcache},
 * {@code Inode}, {@code VfsCache}), umount ({@code Super}), pipes, /proc, exec and core dumps,
 * ext2's truncate, and the everyday calls ({@code Syscalls}). {@code PageCache} and
 * {@code VfsFile} model what decides whether a read goes to the disk and how much writeback there
 * is; {@code FileIo} carries a call's arguments, so that a path loops over exactly the pages the
 * call names.
 *
 * <p>Models Linux 2.4.17: fs/buffer.c, dcache.c, inode.c, super.c, pipe.c, exec.c,
 * binfmt_elf.c, read_write.c, open.c, namei.c and select.c, fs/proc/array.c and proc_misc.c,
 * fs/ext2/inode.c and balloc.c, and the fields of include/linux/fs.h that these read (each
 * function in docs/xref.md).
 *
 * <p>Start reading with {@code Dcache}: {@code prune_dcache()} is the vanilla kernel's worst
 * case under the stress load. Then {@code Buffer}, and {@code Syscalls} for the calls a load
 * makes.
 */
package dev.kernellab.paths.fs;
