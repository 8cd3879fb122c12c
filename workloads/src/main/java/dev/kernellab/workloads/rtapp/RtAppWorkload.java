package dev.kernellab.workloads.rtapp;

import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.workloads.Workload;
import dev.kernellab.workloads.Workloads;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;

/**
 * An rt-app workload file (scheduler-tools/rt-app's JSON grammar) as a {@link Workload}: each
 * thread a user task with its policy, priority and CPUs, each event the Linux 2.4 work it was
 * ({@link RtAppThread}), the latency the wake-up latency of its timer events, as rt-app logs it
 * ({@code wu_lat}). The lab takes a {@code --workload} that is no built-in name and names a
 * readable file as one ({@link #resolve}).
 *
 * <pre>{@code
 * Workload w = RtAppWorkload.fromFile(Path.of("audio.json"));
 * Workload.Run run = w.install(paths, builder);
 * ...
 * List<RtAppLog> logs = RtAppWorkload.logs(run);   // rt-app's per-thread logs
 * List<RtAppLogFile> files = RtAppWorkload.logFiles(run);   // and the files rt-app would write
 * }</pre>
 *
 * <p>docs/rt-app.md lists what is supported, what is refused and why, and how each event maps
 * onto 2.4.
 */
public final class RtAppWorkload implements Workload {

  private final RtAppFile file;

  /** The workload of an already read file. */
  public RtAppWorkload(RtAppFile file) {
    this.file = java.util.Objects.requireNonNull(file, "file");
  }

  /**
   * The workload of the file at {@code path}.
   *
   * @throws IllegalArgumentException one line: unreadable, malformed, or unsupported
   */
  public static RtAppWorkload fromFile(Path path) {
    return new RtAppWorkload(RtAppReader.read(path));
  }

  /**
   * The workload {@code nameOrFile} names: a registered workload by its name, else, if it
   * names a readable file, that file read as an rt-app workload description
   * (this class).
   *
   * @throws IllegalArgumentException one line: no such workload or file, or a file that is
   *     malformed or asks for what the model cannot do
   */
  public static Workload resolve(String nameOrFile) {
    if (Workloads.names().contains(nameOrFile)) {
      return Workloads.create(nameOrFile);
    }
    Path p;
    try {
      p = Path.of(nameOrFile);
    } catch (InvalidPathException e) {
      p = null;
    }
    if (p == null || !Files.exists(p) || nameOrFile.isBlank()) {
      // the registry's own words, and the other thing the name could have been
      throw new IllegalArgumentException("unknown workload '" + nameOrFile + "'; known: " + String.join(", ", Workloads.names())
          + "; nor is it an rt-app file (no such file)");
    }
    if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
      throw new IllegalArgumentException("rt-app file " + nameOrFile + ": not a readable file");
    }
    return RtAppWorkload.fromFile(p);
  }

  /** The file as read. */
  public RtAppFile file() {
    return file;
  }

  @Override
  public String name() {
    return file.source();
  }

  @Override
  public String description() {
    return "rt-app file " + file.source() + ": " + file.tasks().size() + " task(s), " + file.threads() + " thread(s)";
  }

  @Override
  public void checkMachine(int cpus) {
    for (RtAppFile.TaskDef t : file.tasks()) {
      for (int c : t.cpus()) {
        if (c >= cpus) {
          throw new IllegalArgumentException("rt-app file " + file.source() + ": tasks." + t.name() + ".cpus: CPU " + c
              + " does not exist on a machine of " + cpus + " CPU" + (cpus == 1 ? "" : "s")
              + " (rt-app exits when sched_setaffinity fails; give --cpus " + (c + 1) + ")");
        }
      }
    }
  }

  @Override
  public Run install(Kernel24Paths paths, KernelBuilder b) {
    checkMachine(b.machine().cpus());
    RtAppRun run = new RtAppRun(file, paths, b.hz());
    for (RtAppThread t : run.all) {
      b.task(t.task());
    }
    return run;
  }

  /** The per-thread logs of a run of an rt-app workload, in thread order; empty for any other run. */
  public static List<RtAppLog> logs(Run run) {
    return run instanceof RtAppRun r ? r.logs() : List.of();
  }

  /**
   * The files rt-app would have written for a run of an rt-app workload, as they stand now: one
   * a thread, in thread order, named after the file's {@code log_basename}. Empty for any other
   * run, and for a file whose {@code log_size} turns the logs off.
   */
  public static List<RtAppLogFile> logFiles(Run run) {
    if (!(run instanceof RtAppRun r) || !r.file.global().writesLogs()) {
      return List.of();
    }
    String basename = r.file.global().logBasename();
    return r.logs().stream().map(l -> l.file(basename)).toList();
  }
}
