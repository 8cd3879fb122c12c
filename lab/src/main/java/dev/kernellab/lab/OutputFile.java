package dev.kernellab.lab;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A file a command writes ({@code --json FILE}, {@code trace -o FILE}, {@code --chrome FILE},
 * {@code xref -o FILE}): checked when the command line is read, before the run, and written
 * whole or not at all (a temporary file beside it, then a move onto its name). A failure is one
 * line naming the option, the file and the reason, and leaves nothing behind.
 */
final class OutputFile {

  private final String option;
  private final String file;
  private final Path target; // null for standard output
  private final boolean existed;

  private OutputFile(String option, String file, Path target, boolean existed) {
    this.option = option;
    this.file = file;
    this.target = target;
    this.existed = existed;
  }

  /**
   * {@code file}, given as {@code option}, checked: a file name (or {@code -} for standard
   * output where {@code stdoutAllowed}), not a directory, in a directory that exists or can be
   * made and where a file can be created.
   *
   * @throws IllegalArgumentException naming the option and what is wrong
   */
  static OutputFile of(String option, String file, boolean stdoutAllowed) {
    if (file == null || file.isBlank()) {
      throw new IllegalArgumentException(option + ": an empty file name");
    }
    if (file.equals("-")) {
      if (!stdoutAllowed) {
        throw new IllegalArgumentException(option + " -: standard output is not allowed here");
      }
      return new OutputFile(option, file, null, false);
    }
    Path target;
    try {
      target = Path.of(file).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException(option + " " + file + ": not a file name (" + e.getReason() + ")");
    }
    if (Files.isDirectory(target)) {
      throw new IllegalArgumentException(option + " " + file + ": is a directory");
    }
    Path dir = target.getParent();
    Path existing = dir;
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing == null || !Files.isDirectory(existing)) {
      throw new IllegalArgumentException(option + " " + file + ": " + (existing == null ? "no such directory"
          : existing + " is not a directory"));
    }
    if (existing.equals(dir)) {
      // create and remove a file where the output will go: the one test that answers for every
      // file system (a read-only mount, /proc, a directory without write permission)
      try {
        Files.delete(Files.createTempFile(dir, ".kernel-lab", ".probe"));
      } catch (IOException e) {
        throw new IllegalArgumentException(option + " " + file + ": " + reason(e));
      }
    } else if (!Files.isWritable(existing)) {
      throw new IllegalArgumentException(option + " " + file + ": " + existing + ": permission denied");
    }
    if (Files.exists(target) && !Files.isRegularFile(target)) {
      throw new IllegalArgumentException(option + " " + file + ": exists and is not a regular file");
    }
    return new OutputFile(option, file, target, Files.exists(target));
  }

  /** True for {@code -}. */
  boolean isStandardOutput() {
    return target == null;
  }

  /** The name as given. */
  String name() {
    return file;
  }

  /** The file's absolute path, or null for standard output. */
  Path path() {
    return target;
  }

  /** True if a file of that name existed when the command line was read: writing replaces it. */
  boolean replaces() {
    return existed;
  }

  /**
   * Writes {@code text}: to {@code out} for {@code -}, else to a temporary file beside the
   * target, moved onto it once whole; the temporary file is removed if anything fails.
   *
   * @throws IllegalArgumentException naming the option, the file and the reason
   */
  void write(String text, PrintWriter out) {
    if (target == null) {
      out.print(text);
      out.flush();
      return;
    }
    write(text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Writes {@code bytes} to the file, whole or not at all, as {@link #write(String, PrintWriter)}
   * does; a binary file never goes to standard output.
   *
   * @throws IllegalArgumentException naming the option, the file and the reason
   */
  void write(byte[] bytes) {
    if (target == null) {
      throw new IllegalArgumentException(option + " -: a binary file is not written to standard output");
    }
    Path tmp = null;
    try {
      Path dir = target.getParent();
      Files.createDirectories(dir);
      tmp = Files.createTempFile(dir, ".kernel-lab", ".tmp");
      Files.write(tmp, bytes);
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      tmp = null;
    } catch (IOException e) {
      throw new IllegalArgumentException(option + " " + file + ": " + reason(e));
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // the write failed already: that is the error the user gets
        }
      }
    }
  }

  /** The reason of an I/O failure in words, without the temporary file's name. */
  static String reason(IOException e) {
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getReason().toLowerCase(java.util.Locale.ROOT);
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  /** True if this file lies inside {@code dir} (a report directory it would collide with). */
  boolean isInside(Path dir) {
    return target != null && target.startsWith(dir.toAbsolutePath().normalize());
  }
}
