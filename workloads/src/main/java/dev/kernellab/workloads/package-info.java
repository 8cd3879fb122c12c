/**
 * The programs that run on the simulated machine, as user tasks over the kernel-paths catalog:
 * the probes {@code Realfeel} (Mark Hahn's realfeel on the RTC at 2048 Hz), {@code Cyclictest}
 * (rt-tests) and latencytest's RTC loop ({@code Latencytest}), and the loads: the Red Hat
 * stress-kernel mix ({@code StressMix}, with {@code LoopbackNfs}), latencytest's five phases,
 * dbench ({@code Dbench}) and a kernel build ({@code KernelBuild}). {@code LatencyRecorder} keeps
 * each probe's samples in a fixed-memory HdrHistogram. Load sizes are stated assumptions, not
 * fitted to the results of the 2002 reports.
 *
 * <p>Models, where a load stands for kernel code the catalog lacks, Linux 2.4.17:
 * kernel/exit.c {@code sys_wait4()} and kernel/signal.c ({@code ChildWait}), and fs/nfs and
 * fs/nfsd ({@code LoopbackNfs}).
 *
 * <p>Start reading with {@code Workloads} (the registry of {@code stress}, {@code latencytest},
 * {@code dbench}, {@code kbuild}, {@code idle}, {@code cyclictest}), then {@code Workload},
 * {@code StressMix} and {@code Realfeel}.
 */
package dev.kernellab.workloads;
