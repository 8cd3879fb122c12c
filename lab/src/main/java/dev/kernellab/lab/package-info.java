/**
 * The {@code kernel-lab} command: the subcommands {@code compare}, {@code run}, {@code sweep},
 * {@code explain}, {@code trace}, {@code list} and {@code bench}, which compose each
 * {@code Experiment} from the other modules ({@code ExperimentRunner}) and run several in
 * parallel, one simulation per thread ({@code Runs}). The anatomy of each worst sample comes from
 * the {@code anatomy} module as types; {@code AnatomyText} is the one place that puts it into
 * words ({@code Breakdown}), for every output. The
 * outputs are the JSON report, cyclictest-format histograms, the charts and the HTML report,
 * written whole into one directory ({@code ReportDirectory}), and ftrace-format and Chrome
 * traces ({@code FtraceWriter}). The package models no kernel code.
 */
package dev.kernellab.lab;
