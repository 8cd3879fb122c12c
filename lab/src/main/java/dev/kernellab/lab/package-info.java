/**
 * The {@code kernel-lab} command: the subcommands {@code compare}, {@code run}, {@code sweep},
 * {@code explain}, {@code trace}, {@code list} and {@code bench}, which compose each
 * {@code Experiment} from the other modules ({@code ExperimentRunner}) and run several in
 * parallel, one simulation per thread ({@code Runs}). {@code WakeupLatencyTracer} splits every
 * probe sample into interrupt latency, handler, wait for the CPU and switch to user mode, and
 * names the task, kernel path, site and lock behind the worst ones ({@code Breakdown}). The
 * outputs are the JSON report, cyclictest-format histograms, the charts and the HTML report,
 * written whole into one directory ({@code ReportDirectory}), and ftrace-format and Chrome
 * traces ({@code FtraceWriter}). The package models no kernel code.
 */
package dev.kernellab.lab;
