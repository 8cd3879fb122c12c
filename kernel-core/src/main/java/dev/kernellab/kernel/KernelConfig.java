package dev.kernellab.kernel;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.spi.PreemptionModel;
import dev.kernellab.kernel.spi.Scheduler;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.Softirq;
import dev.kernellab.kernel.spi.Sysctl;
import dev.kernellab.kernel.spi.Tracer;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Everything a {@link Kernel} is booted from, as {@link KernelBuilder#build()} hands it over
 * once every rule has been checked and every patch applied: the kernel reads this and never the
 * builder, so composition runs one way (builder to kernel) and nothing a builder or a patch does
 * afterwards reaches a booted kernel.
 *
 * @param machine the machine to simulate
 * @param seed every random draw of the run derives from it
 * @param scheduler the one scheduler
 * @param preemption the preemption decisions ({@link PreemptionModel#VANILLA} unless a patch set
 *     them)
 * @param tracer the tracers attached, composed in the order attached, if any
 * @param debug which debug checks run
 * @param hz the timer frequency, checked by {@link KernelBuilder#checkHz}
 * @param ksoftirqd whether each CPU gets its ksoftirqd thread
 * @param tasks the boot tasks, the builder's first and then each patch's in the order applied
 * @param irqActions {@code request_irq} handlers by IRQ line
 * @param softirqHandlers {@code open_softirq} actions
 * @param siteHooks what runs between the iterations of the loops at each site
 * @param sysctls the patches' run-time switches by name
 * @param threadIrqs whether device interrupts run in handler threads ({@link IrqThreads})
 * @param irqThreadPriorities the SCHED_FIFO priority of a line's handler thread, where not the
 *     default
 * @param threadSoftirqs whether softirqs run only in threads ({@link Kernel#deferSoftirqs})
 * @param sleepingSpinlocks whether a {@code spinlock_t} is an {@code rt_mutex} ({@link Kernel#sleeps})
 */
record KernelConfig(
    MachineSpec machine,
    long seed,
    Scheduler scheduler,
    PreemptionModel preemption,
    Optional<Tracer> tracer,
    DebugChecks debug,
    int hz,
    boolean ksoftirqd,
    List<TaskSpec> tasks,
    Map<Integer, Kernel.IrqAction> irqActions,
    Map<Softirq, KernelPath> softirqHandlers,
    Map<Site, KernelPath> siteHooks,
    Map<String, Sysctl> sysctls,
    boolean threadIrqs,
    Map<Integer, Integer> irqThreadPriorities,
    boolean threadSoftirqs,
    boolean sleepingSpinlocks) {

  /** Copies the collections, keeping their orders (lines, softirqs and names sorted; hooks as applied). */
  KernelConfig {
    Objects.requireNonNull(machine, "machine");
    Objects.requireNonNull(scheduler, "scheduler");
    Objects.requireNonNull(preemption, "preemption");
    Objects.requireNonNull(tracer, "tracer");
    Objects.requireNonNull(debug, "debug");
    tasks = List.copyOf(tasks);
    irqActions = Collections.unmodifiableMap(new TreeMap<>(irqActions));
    softirqHandlers = Collections.unmodifiableMap(new TreeMap<>(softirqHandlers));
    siteHooks = Collections.unmodifiableMap(new LinkedHashMap<>(siteHooks));
    sysctls = Collections.unmodifiableMap(new TreeMap<>(sysctls));
    irqThreadPriorities = Collections.unmodifiableMap(new TreeMap<>(irqThreadPriorities));
  }
}
