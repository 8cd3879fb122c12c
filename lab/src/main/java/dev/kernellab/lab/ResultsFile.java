package dev.kernellab.lab;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A sweep's {@code --results FILE.jsonl}: one {@link CellJson} outcome line per finished cell,
 * appended as each finishes, so that a sweep stopped anywhere (Ctrl-C, a lost driver, a
 * power-off of all but the file) reruns only the cells it has no line for.
 *
 * <p>Implementation overview. What counts as done: a cell that ran to its end, or one that hit
 * a kernel bug (deterministic: it would hit it again). A partial run (stopped by Ctrl-C) and a
 * lost cell are not written, so they run again. A line that does not parse, typically the last
 * one of a killed process, is ignored with a warning, and a missing final newline is added
 * before the next append so the next line stands alone. Lines of other cells (another seed
 * range, another duration) are kept and ignored, so a sweep can grow in the same file. Each line
 * is flushed to the operating system as it is written.
 */
final class ResultsFile implements AutoCloseable {

  private final Path path;
  private final Map<Experiment, CellOutcome> done = new HashMap<>();
  private final BufferedWriter writer;

  private ResultsFile(Path path, BufferedWriter writer) {
    this.path = path;
    this.writer = writer;
  }

  /** Opens {@code file} for appending, reading what it already holds; {@code err} gets warnings. */
  static ResultsFile open(String file, PrintWriter err) {
    Path p = Path.of(file).toAbsolutePath();
    try {
      boolean needsNewline = false;
      Map<Experiment, CellOutcome> read = new HashMap<>();
      if (Files.exists(p)) {
        List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
          String line = lines.get(i);
          if (line.isBlank()) {
            continue;
          }
          try {
            CellOutcome o = CellJson.outcome(line);
            if (counts(o)) {
              read.putIfAbsent(o.cell(), o);
            }
          } catch (IllegalArgumentException e) {
            err.println("kernel-lab: " + file + " line " + (i + 1) + " is not a cell outcome, ignored (" + e.getMessage()
                + ")");
          }
        }
        needsNewline = Files.size(p) > 0 && !endsWithNewline(p);
      } else if (p.getParent() != null) {
        Files.createDirectories(p.getParent());
      }
      BufferedWriter w = Files.newBufferedWriter(p, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      if (needsNewline) {
        w.newLine();
        w.flush();
      }
      ResultsFile f = new ResultsFile(p, w);
      f.done.putAll(read);
      return f;
    } catch (IOException e) {
      throw new IllegalArgumentException("--results " + file + ": " + OutputFile.reason(e));
    }
  }

  /** The outcome the file holds for {@code cell}, or null if it must run. */
  CellOutcome get(Experiment cell) {
    return done.get(cell);
  }

  /** Appends {@code o} if it is a done cell; thread-safe. */
  synchronized void append(CellOutcome o) {
    if (!counts(o) || done.containsKey(o.cell())) {
      return;
    }
    try {
      writer.write(CellJson.outcome(o));
      writer.newLine();
      writer.flush();
      done.put(o.cell(), o);
    } catch (IOException e) {
      throw new IllegalStateException("cannot append to " + path + ": " + e.getMessage(), e);
    }
  }

  @Override
  public synchronized void close() {
    try {
      writer.close();
    } catch (IOException e) {
      throw new IllegalStateException("cannot close " + path + ": " + e.getMessage(), e);
    }
  }

  private static boolean counts(CellOutcome o) {
    if (o instanceof CellOutcome.Done d) {
      return !d.result().partial();
    }
    return ((CellOutcome.Failed) o).failure() == CellOutcome.Failure.KERNEL_BUG;
  }

  private static boolean endsWithNewline(Path p) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "r")) {
      f.seek(f.length() - 1);
      return f.read() == '\n';
    }
  }
}
