/**
 * The {@code kernel-lab} command: the subcommands {@code compare}, {@code run}, {@code sweep},
 * {@code explain}, {@code trace}, {@code list}, {@code bench} and {@code xref}, which compose
 * each {@code Experiment} from the other modules ({@code ExperimentRunner}) and run several in
 * parallel, one simulation per thread ({@code Runs}). {@code AnatomyText} is the one place that
 * puts the anatomy module's types into words. The outputs (JSON, histograms, charts, the HTML
 * report, ftrace text, trace.dat, Chrome traces, the cross-reference) are written whole or not
 * at all ({@code OutputFile}, {@code ReportDirectory}). docs/commands.md is the user's guide.
 *
 * <p>Models no kernel code.
 *
 * <p>Start reading with {@code KernelLab} (the commands), then {@code CompareCommand},
 * {@code ExperimentRunner} (how one kernel is composed and run) and {@code AnatomyText}.
 */
package dev.kernellab.lab;
