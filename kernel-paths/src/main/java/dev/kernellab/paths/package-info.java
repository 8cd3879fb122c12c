/**
 * The catalog of code paths that the loads of the 2001-2002 latency debate exercise:
 * {@code Kernel24Paths} gathers the sub-catalogs of the {@code mm}, {@code fs}, {@code drivers},
 * {@code net}, {@code kernel} and {@code arch} subpackages, each path a {@code KernelPath} with its
 * locks, named loop sites and calibrated lengths. {@code Calibration} holds the per-operation
 * costs of an 800 MHz Pentium III, each with its source (docs/hardware-and-costs.md), and
 * {@code PathParams} the counts that depend on the load, whose defaults are stated assumptions.
 * {@code CatalogTable} and {@code LatencySources} print the catalog; {@code CatalogPatch} is a
 * patch that must be bound to one kernel's catalog.
 *
 * <p>Models Linux 2.4.17: {@code Locks} holds its global spinlocks (declared in mm/filemap.c,
 * mm/swapfile.c, fs/buffer.c, fs/dcache.c, fs/inode.c, kernel/printk.c, drivers/char/rtc.c and
 * drivers/block/ll_rw_blk.c); the paths themselves are the subpackages'.
 *
 * <p>Start reading with {@code Kernel24Paths}, then {@code Calibration}, then one sub-catalog,
 * such as {@code fs.Dcache}.
 */
package dev.kernellab.paths;
