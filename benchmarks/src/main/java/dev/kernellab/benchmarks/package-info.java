/**
 * JMH benchmarks of the simulator: {@code HoldModelBenchmark} (the hold model of the event queue
 * against {@code java.util.PriorityQueue} and a bare heap of {@code long} keys),
 * {@code InterpreterBenchmark} (kernel-core's interpreter running a tight loop of lock, preempt
 * and interrupt-flag operations) and {@code SchedulerCostBenchmark} (one {@code scheduler_tick()}
 * plus one {@code schedule()} against the number of runnable tasks, for the 2.4.17 goodness and
 * 2.5.5 O(1) schedulers). They measure the Java code and model no kernel code; the README gives
 * the command that runs them.
 */
package dev.kernellab.benchmarks;
