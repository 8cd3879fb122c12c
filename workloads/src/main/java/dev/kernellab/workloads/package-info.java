/**
 * The programs that run on the simulated machine, as user tasks over the kernel-paths catalog:
 * the probes {@code Realfeel} (Mark Hahn's realfeel on the RTC at 2048 Hz), {@code Cyclictest}
 * (rt-tests) and the RTC loop of Benno Senoner's latencytest ({@code Latencytest}), and the
 * loads: the Red Hat stress-kernel mix of the March 2002 whitepaper ({@code StressMix}, with
 * {@code LoopbackNfs}), latencytest's five phases, dbench ({@code Dbench}) and a kernel build
 * ({@code KernelBuild}, {@code CompileJob}). {@code Workloads} is the registry of the named
 * compositions ({@code stress}, {@code latencytest}, {@code dbench}, {@code kbuild},
 * {@code idle}, {@code cyclictest}), and {@code LatencyRecorder} keeps each probe's samples in a
 * fixed-memory HdrHistogram. Where a load stands for kernel code the catalog lacks, it models
 * 2.4.17: kernel/exit.c {@code sys_wait4()} ({@code ChildWait}), and fs/nfs, net/sunrpc and
 * fs/nfsd ({@code LoopbackNfs}). Load sizes are stated assumptions, not fitted to the results
 * of the 2002 reports.
 */
package dev.kernellab.workloads;
