package dev.kernellab.lab;

import dev.kernellab.kernel.KernelBug;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code kernel-lab}: run a workload on a simulated 2002 machine under the kernels of the
 * 2001-2002 scheduling-latency debate and see the latencies, the throughput, and which kernel
 * path caused each worst case.
 *
 * <pre>
 * kernel-lab compare                       the whitepaper's situation under the four kernels
 * kernel-lab run --config preempt+lowlat   one kernel, cyclictest-style
 * kernel-lab compare --out report          the same, with histograms, charts and report.html
 * kernel-lab explain --worst 5             the five worst samples, broken down
 * kernel-lab sweep --seeds 1..100          the spread over seeds, and the worst run to replay
 * kernel-lab trace --config preempt        an ftrace-format trace around the worst sample
 * kernel-lab list workloads                what exists
 * kernel-lab bench                         how fast the simulator runs
 * kernel-lab xref                          which Java models which kernel function
 * </pre>
 *
 * <p>Exit status: 0 success, 2 bad usage (one line on stderr), 3 a kernel bug (printed like an
 * oops), 1 anything else.
 */
@Command(
    name = "kernel-lab",
    mixinStandardHelpOptions = true,
    version = "kernel-lab 0.1.0",
    description = {
      "Replays the 2001-2002 Linux scheduling-latency debate on a simulated machine: Ingo Molnar's"
          + " O(1) scheduler and the 2.4 goodness() scheduler, Robert Love's preempt-kernel patch,"
          + " Andrew Morton's low-latency patch, and both, under the loads the engineers of the time"
          + " measured with. Every figure comes out of the simulated mechanisms; one seed gives one"
          + " run, byte for byte.",
      ""
    },
    subcommands = {CompareCommand.class, RunCommand.class, SweepCommand.class, ExplainCommand.class,
        TraceCommand.class, ListCommand.class, BenchCommand.class, XrefCommand.class},
    footer = {
      "",
      "Exit status: 0 success; 2 bad usage; 3 a kernel bug (an oops, with --debug-checks); 1 other errors."
    })
public final class KernelLab implements Runnable {

  /** Exit status of a run that found a kernel bug. */
  static final int EXIT_KERNEL_BUG = 3;
  /** Exit status of bad usage. */
  static final int EXIT_USAGE = 2;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The command line, wired with the lab's error handling, writing to {@code out} and {@code err}. */
  public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    CommandLine cl = new CommandLine(new KernelLab());
    // sweep runs many seeds (--seeds) and refuses --seed: it does not list it either
    CommandLine.Model.CommandSpec sweep = cl.getSubcommands().get("sweep").getCommandSpec();
    sweep.remove(sweep.findOption("--seed"));
    cl.setOut(out);
    cl.setErr(err);
    cl.setParameterExceptionHandler((ex, args) -> {
      err.println("kernel-lab: " + ex.getMessage());
      err.flush();
      return EXIT_USAGE;
    });
    cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      if (ex instanceof IllegalArgumentException) {
        err.println("kernel-lab: " + ex.getMessage());
        err.flush();
        return EXIT_USAGE;
      }
      if (ex instanceof KernelBug bug) {
        err.println(bug.getMessage());
        err.flush();
        return EXIT_KERNEL_BUG;
      }
      throw ex;
    });
    return cl;
  }

  /** The command's entry point. */
  public static void main(String[] args) {
    // the charts are drawn off screen: no display is needed, none is looked for
    System.setProperty("java.awt.headless", "true");
    // the terminal's own encoding, said out loud
    PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, Charset.defaultCharset()), true);
    PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, Charset.defaultCharset()), true);
    int code = commandLine(out, err).execute(args);
    out.flush();
    err.flush();
    System.exit(code);
  }
}
