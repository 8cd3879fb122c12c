package dev.kernellab.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An output file on its own: what {@link OutputFile#of} refuses before a run, and that a write
 * replaces the file whole and leaves no temporary file beside it.
 */
class OutputFileTests {

  private static String[] names(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toArray(String[]::new);
    }
  }

  @Test
  void anEmptyNameAndStandardOutputWhereItIsNotAllowedAreRefused() {
    assertThatThrownBy(() -> OutputFile.of("--json", "", true)).hasMessage("--json: an empty file name");
    assertThatThrownBy(() -> OutputFile.of("--json", "  ", true)).hasMessage("--json: an empty file name");
    assertThatThrownBy(() -> OutputFile.of("--json", null, true)).hasMessage("--json: an empty file name");
    assertThatThrownBy(() -> OutputFile.of("--dat", "-", false))
        .hasMessage("--dat -: standard output is not allowed here");
    OutputFile out = OutputFile.of("-o", "-", true);
    assertThat(out.isStandardOutput()).isTrue();
    assertThat(out.path()).isNull();
    assertThat(out.replaces()).isFalse();
    assertThat(out.isInside(Path.of("."))).isFalse();
  }

  @Test
  void aDirectoryOrADirectoryThatIsAFileIsRefused(@TempDir Path dir) throws IOException {
    assertThatThrownBy(() -> OutputFile.of("-o", dir.toString(), true)).hasMessage("-o " + dir + ": is a directory");
    Path file = Files.writeString(dir.resolve("plain"), "x");
    String under = file.resolve("a/b.json").toString();
    assertThatThrownBy(() -> OutputFile.of("--json", under, true))
        .hasMessage("--json " + under + ": " + file + " is not a directory");
    assertThatThrownBy(() -> OutputFile.of("--json", file.resolve("b.json").toString(), true))
        .hasMessageStartingWith("--json " + file.resolve("b.json") + ": ");
    assertThat(names(dir)).containsExactly("plain");
  }

  @Test
  void aNameThatIsNotAFileNameIsRefused() {
    assertThatThrownBy(() -> OutputFile.of("--chrome", "a\0b", true))
        .hasMessageStartingWith("--chrome a\0b: not a file name (");
  }

  @Test
  void aFileInDirectoriesStillToBeMadeIsWrittenWholeWithNothingBeside(@TempDir Path dir) throws IOException {
    Path target = dir.resolve("x/y/out.json");
    OutputFile f = OutputFile.of("--json", target.toString(), true);
    assertThat(Files.exists(dir.resolve("x"))).as("checking makes no directory").isFalse();
    assertThat(f.replaces()).isFalse();
    assertThat(f.isStandardOutput()).isFalse();
    assertThat(f.name()).isEqualTo(target.toString());
    assertThat(f.path()).isEqualTo(target.toAbsolutePath().normalize());
    assertThat(f.isInside(dir.resolve("x"))).isTrue();
    assertThat(f.isInside(dir.resolve("z"))).isFalse();
    f.write("{}\n", new PrintWriter(new StringWriter()));
    assertThat(Files.readString(target)).isEqualTo("{}\n");
    assertThat(names(target.getParent())).containsExactly("out.json");
  }

  @Test
  void anEarlierFileIsReplacedAndSaysSo(@TempDir Path dir) throws IOException {
    Path target = Files.writeString(dir.resolve("trace.txt"), "a longer earlier text than the new one\n");
    OutputFile f = OutputFile.of("-o", target.toString(), true);
    assertThat(f.replaces()).isTrue();
    assertThat(names(dir)).as("the check's probe file is gone").containsExactly("trace.txt");
    f.write("é\n".getBytes(StandardCharsets.UTF_8));
    assertThat(Files.readString(target)).isEqualTo("é\n");
    assertThat(names(dir)).containsExactly("trace.txt");
  }

  @Test
  void standardOutputTakesTextAndRefusesBytes() {
    StringWriter s = new StringWriter();
    OutputFile f = OutputFile.of("-o", "-", true);
    f.write("line\n", new PrintWriter(s));
    assertThat(s).hasToString("line\n");
    assertThatThrownBy(() -> f.write(new byte[] {1})).hasMessage("-o -: a binary file is not written to standard output");
  }

  @Test
  void aFailedWriteNamesTheOptionAndTheFileAndLeavesNothing(@TempDir Path dir) throws IOException {
    Path target = dir.resolve("sub/out.dat");
    OutputFile f = OutputFile.of("--dat", target.toString(), false);
    // the directory turns into a file between the check and the write
    Files.writeString(dir.resolve("sub"), "in the way");
    assertThatThrownBy(() -> f.write(new byte[] {1, 2})).hasMessageStartingWith("--dat " + target + ": ");
    assertThat(names(dir)).containsExactly("sub");
  }

  @Test
  void aMoveThatFailsRemovesTheTemporaryFile(@TempDir Path dir) throws IOException {
    Path target = dir.resolve("out.dat");
    OutputFile f = OutputFile.of("--dat", target.toString(), false);
    // a non-empty directory takes the name between the check and the write: the move onto it fails
    Files.writeString(Files.createDirectory(target).resolve("kept"), "x");
    assertThatThrownBy(() -> f.write(new byte[] {1, 2})).hasMessageStartingWith("--dat " + target + ": ");
    assertThat(names(dir)).containsExactly("out.dat");
    assertThat(names(target)).containsExactly("kept");
  }

  @Test
  void anIoFailureIsOneReasonInWords() {
    assertThat(OutputFile.reason(new AccessDeniedException("/x/.kernel-lab123.tmp"))).isEqualTo("permission denied");
    assertThat(OutputFile.reason(new NoSuchFileException("/x/.kernel-lab123.tmp")))
        .isEqualTo("no such file or directory");
    assertThat(OutputFile.reason(new FileSystemException("/x", null, "Read-only file system")))
        .isEqualTo("read-only file system");
    assertThat(OutputFile.reason(new FileSystemException("/x"))).isEqualTo("/x");
    assertThat(OutputFile.reason(new IOException("disk full"))).isEqualTo("disk full");
    assertThat(OutputFile.reason(new IOException())).isEqualTo("IOException");
  }
}
