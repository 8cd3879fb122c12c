/**
 * JMH benchmarks of the simulator: {@code HoldModelBenchmark} (the hold model of the event queue
 * against {@code java.util.PriorityQueue} and a bare heap of {@code long} keys),
 * {@code InterpreterBenchmark} (kernel-core's interpreter running a tight loop of lock, preempt
 * and interrupt-flag operations) and {@code SchedulerCostBenchmark} (one {@code scheduler_tick()}
 * plus one {@code schedule()} against the number of runnable tasks, for the 2.4.17 goodness and
 * 2.5.5 O(1) schedulers).
 *
 * <p>Models no kernel code: they measure the Java. docs/performance.md gives the command that
 * runs them.
 *
 * <p>Start reading with {@code HoldModelBenchmark}, the yardstick the others are read against.
 */
package dev.kernellab.benchmarks;
