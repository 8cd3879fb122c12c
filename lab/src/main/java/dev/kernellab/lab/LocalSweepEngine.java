package dev.kernellab.lab;

import java.util.List;

/**
 * The sweep's built-in engine: every cell on a thread pool of this JVM, one simulation per
 * thread, with the progress line and Ctrl-C handling of the other commands ({@link Runs}).
 * Registered as {@code local} in the lab's {@code META-INF/services/dev.kernellab.lab.SweepEngine},
 * as any engine is; public for {@link java.util.ServiceLoader} only.
 */
public final class LocalSweepEngine implements SweepEngine {

  static final String NAME = "local";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void run(List<Experiment> cells, Options options, Listener listener) {
    if (options.master().isPresent()) {
      throw new IllegalArgumentException("--master is for a distributed engine (--engine spark), not the local one");
    }
    int w = options.workers().orElse(Runtime.getRuntime().availableProcessors());
    if (w < 1) {
      throw new IllegalArgumentException("--workers must be at least 1, got " + w);
    }
    Runs.runEach(cells, w, options.quiet(), options.err(), listener);
  }
}
