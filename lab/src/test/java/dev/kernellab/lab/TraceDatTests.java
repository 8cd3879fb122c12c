package dev.kernellab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kernel-lab trace --dat}: the trace-cmd data file holds, event for event, what the ftrace
 * text holds. Checked two ways: by reading the file's ring-buffer pages back here (the layout of
 * trace-cmd.dat.v6 and kernel/trace/ring_buffer.c), and by Debian's {@code trace-cmd report},
 * which {@code .ci/run} installs and requires ({@code KERNELLAB_TRACE_CMD=required}); elsewhere
 * the second test runs when trace-cmd is on the PATH.
 */
class TraceDatTests {

  private static int run(String... args) {
    return KernelLab.commandLine(new PrintWriter(new StringWriter(), true), new PrintWriter(new StringWriter(), true))
        .execute(args);
  }

  /** One event as both files show it. */
  record Event(int cpu, int pid, String comm, String latency, String stamp, String name, String fields) {
    String withoutComm() {
      return cpu + " " + pid + " " + latency + " " + stamp + " " + name + ": " + fields;
    }
  }

  private static final Pattern TEXT =
      Pattern.compile("^\\s*(.+)-(\\d+) \\[(\\d{3})\\] (\\S{4})\\s+(\\d+\\.\\d{6}): (\\w+): ?(.*)$");
  // trace-cmd report -N -l: "  kswapd-2       0d..1.     0.222657: preempt_disable:      caller=..."
  private static final Pattern REPORT =
      Pattern.compile("^\\s*(.+)-(\\d+)\\s+(\\d+)(\\S{4})\\S*\\s+(\\d+\\.\\d{6}): (\\w+):\\s*(.*?)\\s*$");

  private static List<Event> parse(List<String> lines, Pattern p) {
    List<Event> out = new ArrayList<>();
    for (String l : lines) {
      if (l.startsWith("#") || l.isBlank() || l.startsWith("cpus=")) {
        continue;
      }
      Matcher m = p.matcher(l);
      assertThat(m.matches()).as("a line of an event: %s", l).isTrue();
      out.add(new Event(Integer.parseInt(m.group(3)), Integer.parseInt(m.group(2)), m.group(1).strip(),
          m.group(4), m.group(5), m.group(6), m.group(7).strip()));
    }
    return out;
  }

  /** Each CPU's events in order, as the writer recorded them (CPUs interleave by time, ties unordered). */
  private static Map<Integer, List<String>> perCpu(List<Event> events) {
    Map<Integer, List<String>> out = new TreeMap<>();
    for (Event e : events) {
      out.computeIfAbsent(e.cpu(), c -> new ArrayList<>()).add(e.withoutComm());
    }
    return out;
  }

  @Test
  void theFileHoldsEveryEventOfTheTextWithItsTimeCpuTaskAndFields(@TempDir Path dir) throws IOException {
    Path text = dir.resolve("trace.txt");
    Path dat = dir.resolve("trace.dat");
    assertThat(run("trace", "--config", "preempt+lowlat", "--cpus", "2", "--duration", "1s", "--before", "20ms",
        "--quiet", "-o", text.toString(), "--dat", dat.toString())).isZero();
    List<Event> written = parse(Files.readAllLines(text), TEXT);
    assertThat(written).hasSizeGreaterThan(500);
    assertThat(written.stream().map(Event::cpu).distinct()).containsExactlyInAnyOrder(0, 1);

    List<Decoded> decoded = decode(Files.readAllBytes(dat));
    assertThat(decoded).hasSameSizeAs(written);
    Map<Integer, List<Decoded>> byCpu = new TreeMap<>();
    decoded.forEach(d -> byCpu.computeIfAbsent(d.cpu(), c -> new ArrayList<>()).add(d));
    Map<Integer, List<Event>> writtenByCpu = new TreeMap<>();
    written.forEach(e -> writtenByCpu.computeIfAbsent(e.cpu(), c -> new ArrayList<>()).add(e));
    assertThat(byCpu.keySet()).isEqualTo(writtenByCpu.keySet());
    for (int cpu : byCpu.keySet()) {
      List<Decoded> d = byCpu.get(cpu);
      List<Event> w = writtenByCpu.get(cpu);
      assertThat(d).hasSameSizeAs(w);
      for (int i = 0; i < d.size(); i++) {
        long us = (d.get(i).ns() + 500) / 1_000;
        assertThat(String.format("%d.%06d", us / 1_000_000, us % 1_000_000)).as("event %d of cpu%d", i, cpu)
            .isEqualTo(w.get(i).stamp());
        assertThat(d.get(i).pid()).isEqualTo(w.get(i).pid());
        assertThat(d.get(i).eventName()).isEqualTo(w.get(i).name());
      }
    }
  }

  @Test
  void traceCmdReportPrintsTheSameEventsAsTheText(@TempDir Path dir) throws Exception {
    boolean required = "required".equals(System.getenv("KERNELLAB_TRACE_CMD"));
    boolean present = traceCmdPresent();
    if (required) {
      assertThat(present).as("KERNELLAB_TRACE_CMD=required and no trace-cmd on the PATH").isTrue();
    }
    Assumptions.assumeTrue(present, "trace-cmd is not installed (.ci/run installs it)");
    Path text = dir.resolve("trace.txt");
    Path dat = dir.resolve("trace.dat");
    assertThat(run("trace", "--config", "preempt+lowlat", "--cpus", "2", "--duration", "1s", "--before", "20ms",
        "--quiet", "-o", text.toString(), "--dat", dat.toString())).isZero();
    List<Event> written = parse(Files.readAllLines(text), TEXT);
    List<Event> reported = parse(report(dat), REPORT);
    assertThat(perCpu(reported)).isEqualTo(perCpu(written));
    // The task column comes from saved_cmdlines, one name a pid, as in ftrace: a pid that ran
    // under one name in the window shows it on every line, in the latency format's 8 columns
    // (kernel/trace/trace_output.c lat_print_generic, "%8.8s")
    Map<Integer, Set<String>> names = new HashMap<>();
    written.forEach(e -> names.computeIfAbsent(e.pid(), p -> new HashSet<>()).add(e.comm()));
    int checked = 0;
    for (Event r : reported) {
      if (names.get(r.pid()).size() == 1) {
        String name = names.get(r.pid()).iterator().next();
        assertThat(r.comm()).isEqualTo(name.length() > 8 ? name.substring(0, 8) : name);
        checked++;
      }
    }
    assertThat(checked).isGreaterThan(reported.size() / 2);
  }

  /**
   * Gaps past the 27 bits of an entry's time delta (134 ms) take a time-extend entry, an event
   * longer than 112 bytes the long form, and a CPU's events run over many pages: trace-cmd reads
   * each back at its time, with its fields.
   */
  @Test
  void longGapsLongEventsAndManyPagesReadBack(@TempDir Path dir) throws Exception {
    TraceDat d = new TraceDat(2);
    String longName = "a_lock_whose_name_runs_well_past_the_hundred_and_twelve_bytes_of_a_short_entry_"
        + "so_the_long_form_is_needed";
    long t = 1_000;
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      int cpu = i % 2;
      t += i % 97 == 0 ? 3_000_000_000L + i : 1_234 + i;
      d.record(cpu, t, TraceDat.LOCK_CONTENDED, 0, 0, 7, longName, "caller" + i);
      long us = (t + 500) / 1_000;
      expected.add(cpu + " " + String.format("%d.%06d", us / 1_000_000, us % 1_000_000) + " " + longName
          + " caller=caller" + i);
    }
    byte[] bytes = d.bytes(Map.of(7, "locker"));
    List<Decoded> decoded = decode(bytes);
    assertThat(decoded).hasSize(2_000);
    assertThat(decoded.stream().filter(x -> x.cpu() == 0).map(Decoded::ns).toList()).isSorted();
    Assumptions.assumeTrue(traceCmdPresent() || "required".equals(System.getenv("KERNELLAB_TRACE_CMD")));
    Path dat = dir.resolve("synthetic.dat");
    Files.write(dat, bytes);
    List<String> got = new ArrayList<>();
    for (Event e : parse(report(dat), REPORT)) {
      assertThat(e.comm()).isEqualTo("locker");
      got.add(e.cpu() + " " + e.stamp() + " " + e.fields());
    }
    assertThat(got).containsExactlyElementsOf(expected);
  }

  /** An executable trace-cmd on the PATH ({@code trace-cmd --version} exits with 255). */
  private static boolean traceCmdPresent() {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    for (String dir : path.split(java.io.File.pathSeparator, -1)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "trace-cmd"))) {
        return true;
      }
    }
    return false;
  }

  private static List<String> report(Path dat) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("trace-cmd", "report", "-N", "-l", "-i", dat.toString()).start();
    byte[] out = p.getInputStream().readAllBytes();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("trace-cmd report: %s", err).isZero();
    assertThat(err).as("trace-cmd report's warnings").doesNotContainIgnoringCase("error")
        .doesNotContainIgnoringCase("failed");
    return new String(out, StandardCharsets.UTF_8).lines().toList();
  }

  /** One entry read back from the pages. */
  record Decoded(int cpu, long ns, int pid, String eventName) {}

  /**
   * Reads the file back as trace-cmd does: the header's sections in order, then each CPU's pages,
   * each page's entries by their type_len.
   */
  static List<Decoded> decode(byte[] file) {
    ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
    byte[] magic = new byte[10];
    b.get(magic);
    assertThat(magic).startsWith(0x17, 0x08, 0x44);
    assertThat(new String(magic, 3, 7, StandardCharsets.US_ASCII)).isEqualTo("tracing");
    assertThat(cString(b)).isEqualTo("6");
    assertThat(b.get()).isZero();
    assertThat(b.get()).isEqualTo((byte) 8);
    assertThat(b.getInt()).isEqualTo(TraceDat.PAGE_SIZE);
    assertThat(cString(b)).isEqualTo("header_page");
    skip(b, b.getLong());
    assertThat(cString(b)).isEqualTo("header_event");
    skip(b, b.getLong());
    assertThat(b.getInt()).isZero();
    Map<Integer, String> names = new HashMap<>();
    int systems = b.getInt();
    for (int s = 0; s < systems; s++) {
      cString(b);
      int n = b.getInt();
      for (int e = 0; e < n; e++) {
        byte[] format = new byte[(int) b.getLong()];
        b.get(format);
        String f = new String(format, StandardCharsets.UTF_8);
        Matcher name = Pattern.compile("name: (\\w+)\nID: (\\d+)\n").matcher(f);
        assertThat(name.find()).as(f).isTrue();
        names.put(Integer.parseInt(name.group(2)), name.group(1));
      }
    }
    skip(b, b.getInt()); // kallsyms
    skip(b, b.getInt()); // printk formats
    skip(b, b.getLong()); // saved_cmdlines
    int cpus = b.getInt();
    byte[] tag = new byte[10];
    b.get(tag);
    assertThat(new String(tag, StandardCharsets.US_ASCII)).isEqualTo("options  \0");
    for (int option = b.getShort(); option != 0; option = b.getShort()) {
      skip(b, b.getInt());
    }
    b.get(tag);
    assertThat(new String(tag, StandardCharsets.US_ASCII)).isEqualTo("flyrecord\0");
    List<Decoded> out = new ArrayList<>();
    for (int cpu = 0; cpu < cpus; cpu++) {
      long offset = b.getLong();
      long size = b.getLong();
      assertThat(offset % TraceDat.PAGE_SIZE).isZero();
      for (long page = offset; page < offset + size; page += TraceDat.PAGE_SIZE) {
        long ts = b.getLong((int) page);
        long commit = b.getLong((int) page + 8);
        int at = (int) page + 16;
        int end = at + (int) commit;
        while (at < end) {
          int header = b.getInt(at);
          int typeLen = header & 0x1f;
          long delta = header >>> 5;
          if (typeLen == 30) {
            ts += ((long) b.getInt(at + 4) << 27) + delta;
            at += 8;
            continue;
          }
          assertThat(typeLen).as("an entry's type").isBetween(0, 28);
          ts += delta;
          int data = typeLen == 0 ? at + 8 : at + 4;
          int length = typeLen == 0 ? b.getInt(at + 4) - 4 : typeLen * 4;
          int id = b.getShort(data) & 0xffff;
          out.add(new Decoded(cpu, ts, b.getInt(data + 4), names.get(id)));
          at = data + ((length + 3) & ~3);
        }
        assertThat(at).isEqualTo(end);
      }
    }
    return out;
  }

  /** Moves past {@code n} bytes; {@code n} is read before the position is (Java evaluates left to right). */
  private static void skip(ByteBuffer b, long n) {
    b.position(b.position() + (int) n);
  }

  private static String cString(ByteBuffer b) {
    StringBuilder sb = new StringBuilder();
    for (byte c = b.get(); c != 0; c = b.get()) {
      sb.append((char) c);
    }
    return sb.toString();
  }
}
