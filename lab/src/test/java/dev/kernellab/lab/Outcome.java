package dev.kernellab.lab;

import java.io.PrintWriter;
import java.io.StringWriter;

/** What one command line did, run in this JVM as a user's shell would run it: its exit and output. */
record Outcome(int code, String out, String err) {

  /** Runs {@code kernel-lab ARGS} with its standard output and error captured. */
  static Outcome run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = KernelLab.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    return new Outcome(code, out.toString(), err.toString());
  }
}
