/**
 * The service-provider interface of kernel-core: what a plug-in implements, and the read-only
 * views it is shown. A scheduler ({@link dev.kernellab.kernel.spi.Scheduler}, its
 * {@link dev.kernellab.kernel.spi.SchedEntity} and
 * {@link dev.kernellab.kernel.spi.SchedulerProvider}) sees tasks as
 * {@link dev.kernellab.kernel.spi.TaskView}s and writes the fields it owns through its
 * {@link dev.kernellab.kernel.spi.SchedulerHost}. A patch that makes kernel code preemptible
 * implements {@link dev.kernellab.kernel.spi.PreemptionModel}, which is asked at each
 * preemption point with a read-only {@link dev.kernellab.kernel.spi.CpuView}. Every plug-in kind
 * is found through a {@link dev.kernellab.kernel.spi.Registry}. A tracer
 * ({@link dev.kernellab.kernel.spi.Tracer}) is told of the kernel's events with views of the tasks,
 * paths ({@link dev.kernellab.kernel.spi.PathView}) and locks
 * ({@link dev.kernellab.kernel.spi.LockView}) involved, says which detail events it wants
 * through its {@link dev.kernellab.kernel.spi.TraceInterest}, and reads the kernel through a
 * {@link dev.kernellab.kernel.spi.KernelView}. A path, a patch or a plug-in names what held a CPU
 * in its own terms with a {@link dev.kernellab.kernel.spi.LatencyCause}, at the loop
 * {@link dev.kernellab.kernel.spi.Site}s of the catalog. A patch
 * ({@link dev.kernellab.kernel.spi.KernelPatch}, registered by a
 * {@link dev.kernellab.kernel.spi.KernelPatchProvider}) changes the kernel being built through
 * {@link dev.kernellab.kernel.spi.Patching}: it hooks sites with code, registers a
 * {@link dev.kernellab.kernel.spi.Sysctl}, adds tasks, and may add a primitive to the path
 * language as an {@link dev.kernellab.kernel.spi.Operation}. The code itself is written in the
 * kernel's path language ({@code KernelPath}, {@code TaskSpec}), seen here as
 * {@code PathView} and {@link dev.kernellab.kernel.spi.TaskSpecView}: the kernel refuses a view it
 * did not build.
 *
 * <p>Nothing in this package depends on the kernel's implementation ({@code dev.kernellab.kernel});
 * the implementation depends on it. A library user composes kernels with
 * {@code dev.kernellab.kernel.KernelBuilder} and needs this package only to read a task: its
 * {@link dev.kernellab.kernel.spi.TaskState} and {@link dev.kernellab.kernel.spi.SchedPolicy}
 * are the user's types too (a task's state, the policy a workload asks for), as are a
 * {@link dev.kernellab.kernel.spi.Sysctl} a user flips and the
 * {@link dev.kernellab.kernel.spi.Softirq} vectors.
 *
 * <p>Start reading with {@link dev.kernellab.kernel.spi.Scheduler}: it is {@code schedule()}'s
 * policy half of kernel/sched.c (2.4.17 and 2.5.5), cut where {@code struct sched_class} later
 * cut it.
 */
package dev.kernellab.kernel.spi;
