/**
 * rt-app workload files (scheduler-tools/rt-app, Juri Lelli, Vincent Guittot et al.) on the
 * simulated Linux 2.4.17: a lenient reader of its JSON grammar ({@code LenientJson},
 * {@code RtAppReader}) into a typed model ({@code RtAppFile}, {@code RtAppEvent}), the threads
 * as user programs over the kernel-paths catalog ({@code RtAppThread}, with LinuxThreads'
 * signal-based mutexes and conditions in {@code LinuxThreads}), and rt-app's per-thread logs
 * ({@code RtAppLog} while the threads run, {@code RtAppLogFile} as rt-app writes them). {@code RtAppWorkload} is the entry point; docs/rt-app.md the user's
 * guide.
 */
package dev.kernellab.workloads.rtapp;
