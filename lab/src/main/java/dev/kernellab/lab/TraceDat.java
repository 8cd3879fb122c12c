package dev.kernellab.lab;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A trace-cmd data file ({@code trace.dat}, file version 6) of the kernel's events, so that
 * {@code trace-cmd report} and KernelShark open a simulated run as they open a recording of a
 * real machine. The layout is trace-cmd's (Documentation/trace-cmd/trace-cmd.dat.v6.5.txt in
 * the trace-cmd repository); the events are packed as the kernel's ring buffer packs them
 * (kernel/trace/ring_buffer.c: 4096-byte pages of a 16-byte header and compressed entries, as
 * the {@code header_page} and {@code header_event} texts below describe).
 *
 * <pre>{@code
 * TraceDat dat = new TraceDat(2);
 * dat.record(0, 1_000, TraceDat.SCHED_WAKEUP, flags, depth, pid, "realfeel", 12, 0, 0);
 * byte[] file = dat.bytes(Map.of(12, "realfeel"));
 * }</pre>
 */
final class TraceDat {

  /*
   * Implementation overview
   *
   *   file:   magic, "6", endianness, long size, page size
   *           header_page, header_event (the ring buffer's own formats)
   *           0 ftrace formats; the event systems (sched, irq, preemptirq, lock), each
   *           event's format file; empty kallsyms and printk formats; saved_cmdlines
   *           cpu count; options (the trace clock); "flyrecord", then per CPU its data's
   *           offset and size; the CPUs' pages, page aligned
   *   page:   u64 timestamp of its first entry, u64 commit (bytes of entries), entries
   *   entry:  u32 = time_delta << 5 | type_len; type_len 1..28 is a payload of that many
   *           words, 0 a longer one whose length + 4 is the next word, 30 a time extend
   *           (the delta's upper bits in the next word) for a delta past 27 bits
   *   payload: common_type, common_flags, common_preempt_count, common_pid, then the event's
   *           fields at the offsets its format file states; a __data_loc string is a word
   *           of length << 16 | offset, the bytes after the fixed fields
   *
   * The layout is that of a 64-bit little-endian kernel (long and local_t of 8 bytes), the
   * kind of machine that reads the file today; the modelled machine is a 32-bit PC of 2002,
   * which had no ftrace.
   */

  static final int PAGE_SIZE = 4096;
  private static final int PAGE_HEADER = 16;
  private static final int TYPE_LEN_MAX_DATA = 28;
  private static final int TYPE_TIME_EXTEND = 30;
  private static final long DELTA_MAX = (1L << 27) - 1;

  /** common_flags bits (include/linux/trace_events.h, TRACE_FLAG_*). */
  static final int FLAG_IRQS_OFF = 0x01;
  static final int FLAG_NEED_RESCHED = 0x04;
  static final int FLAG_HARDIRQ = 0x08;
  static final int FLAG_SOFTIRQ = 0x10;

  /** How a field is stored. */
  enum Kind { INT, LONG, COMM, STRING }

  /** One field of an event's format file. */
  record Field(String declaration, String name, Kind kind) {
    int size() {
      return switch (kind) {
        case INT, STRING -> 4;
        case LONG -> 8;
        case COMM -> 16;
      };
    }

    boolean signed() {
      return !declaration.startsWith("unsigned") && kind != Kind.COMM;
    }
  }

  /** One event: its id, system, name, fields (after the common ones) and print format. */
  record Format(int id, String system, String name, List<Field> fields, String printFmt) {

    /** The text of events/{system}/{name}/format. */
    String text() {
      StringBuilder sb = new StringBuilder();
      sb.append("name: ").append(name).append('\n').append("ID: ").append(id).append('\n').append("format:\n");
      sb.append("\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n");
      sb.append("\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n");
      sb.append("\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n");
      sb.append("\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n");
      int offset = 8;
      for (Field f : fields) {
        sb.append(String.format(Locale.ROOT, "\tfield:%s;\toffset:%d;\tsize:%d;\tsigned:%d;\n",
            f.declaration(), offset, f.size(), f.signed() ? 1 : 0));
        offset += f.size();
      }
      sb.append("\nprint fmt: ").append(printFmt).append('\n');
      return sb.toString();
    }

    int fixedSize() {
      int n = 8;
      for (Field f : fields) {
        n += f.size();
      }
      return n;
    }
  }

  private static Field f(String declaration, String name, Kind kind) {
    return new Field(declaration, name, kind);
  }

  /** sched/sched_switch, with the fields of the kernel's TRACE_EVENT (include/trace/events/sched.h). */
  static final Format SCHED_SWITCH = new Format(301, "sched", "sched_switch", List.of(
      f("char prev_comm[16]", "prev_comm", Kind.COMM), f("pid_t prev_pid", "prev_pid", Kind.INT),
      f("int prev_prio", "prev_prio", Kind.INT), f("long prev_state", "prev_state", Kind.LONG),
      f("char next_comm[16]", "next_comm", Kind.COMM), f("pid_t next_pid", "next_pid", Kind.INT),
      f("int next_prio", "next_prio", Kind.INT)),
      "\"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d\","
          + " REC->prev_comm, REC->prev_pid, REC->prev_prio, __print_symbolic(REC->prev_state,"
          + " { 0, \"R\" }, { 1, \"S\" }, { 2, \"D\" }, { 4, \"T\" }, { 16, \"X\" }, { 32, \"Z\" }),"
          + " REC->next_comm, REC->next_pid, REC->next_prio");
  /** sched/sched_wakeup. */
  static final Format SCHED_WAKEUP = new Format(302, "sched", "sched_wakeup", List.of(
      f("char comm[16]", "comm", Kind.COMM), f("pid_t pid", "pid", Kind.INT),
      f("int prio", "prio", Kind.INT), f("int target_cpu", "target_cpu", Kind.INT)),
      "\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, REC->target_cpu");
  /** irq/irq_handler_entry (include/trace/events/irq.h). */
  static final Format IRQ_HANDLER_ENTRY = new Format(311, "irq", "irq_handler_entry", List.of(
      f("int irq", "irq", Kind.INT), f("__data_loc char[] name", "name", Kind.STRING)),
      "\"irq=%d name=%s\", REC->irq, __get_str(name)");
  /** irq/irq_handler_exit. */
  static final Format IRQ_HANDLER_EXIT = new Format(312, "irq", "irq_handler_exit", List.of(
      f("int irq", "irq", Kind.INT), f("int ret", "ret", Kind.INT)),
      "\"irq=%d ret=%s\", REC->irq, REC->ret ? \"handled\" : \"unhandled\"");
  /**
   * irq/softirq_entry: the kernel's vec and its name; the model's do_softirq is one event over
   * every pending vector, which the action string names.
   */
  static final Format SOFTIRQ_ENTRY = new Format(313, "irq", "softirq_entry", List.of(
      f("unsigned int vec", "vec", Kind.INT), f("__data_loc char[] action", "action", Kind.STRING)),
      "\"vec=%u [action=%s]\", REC->vec, __get_str(action)");
  /** irq/softirq_exit: no field in the model's text, which ends the run of every vector. */
  static final Format SOFTIRQ_EXIT = new Format(314, "irq", "softirq_exit", List.of(), "\"\"");
  /**
   * preemptirq's four events, with the model's caller (a kernel path or loop site, not an
   * address: the model has no kernel image) and, at the end of the region, its length.
   */
  static final Format IRQ_DISABLE = caller(321, "irq_disable");
  static final Format IRQ_ENABLE = callerOff(322, "irq_enable");
  static final Format PREEMPT_DISABLE = caller(323, "preempt_disable");
  static final Format PREEMPT_ENABLE = callerOff(324, "preempt_enable");
  /** lock's events (lockdep's system), with the model's caller, spin and hold times. */
  static final Format LOCK_ACQUIRE = new Format(331, "lock", "lock_acquire", List.of(
      f("__data_loc char[] name", "name", Kind.STRING), f("__data_loc char[] caller", "caller", Kind.STRING),
      f("__data_loc char[] spun", "spun", Kind.STRING)),
      "\"%s caller=%s%s\", __get_str(name), __get_str(caller), __get_str(spun)");
  static final Format LOCK_CONTENDED = new Format(332, "lock", "lock_contended", List.of(
      f("__data_loc char[] name", "name", Kind.STRING), f("__data_loc char[] caller", "caller", Kind.STRING)),
      "\"%s caller=%s\", __get_str(name), __get_str(caller)");
  static final Format LOCK_RELEASE = new Format(333, "lock", "lock_release", List.of(
      f("__data_loc char[] name", "name", Kind.STRING), f("__data_loc char[] caller", "caller", Kind.STRING),
      f("unsigned long held_us", "held_us", Kind.LONG)),
      "\"%s caller=%s held=%luus\", __get_str(name), __get_str(caller), REC->held_us");

  private static Format caller(int id, String name) {
    return new Format(id, "preemptirq", name, List.of(f("__data_loc char[] caller", "caller", Kind.STRING)),
        "\"caller=%s\", __get_str(caller)");
  }

  private static Format callerOff(int id, String name) {
    return new Format(id, "preemptirq", name, List.of(f("__data_loc char[] caller", "caller", Kind.STRING),
        f("unsigned long off_us", "off_us", Kind.LONG)), "\"caller=%s off=%luus\", __get_str(caller), REC->off_us");
  }

  /** Every event the file can hold, in the order their systems are written. */
  static final List<Format> FORMATS = List.of(SCHED_SWITCH, SCHED_WAKEUP, IRQ_HANDLER_ENTRY,
      IRQ_HANDLER_EXIT, SOFTIRQ_ENTRY, SOFTIRQ_EXIT, IRQ_DISABLE, IRQ_ENABLE, PREEMPT_DISABLE,
      PREEMPT_ENABLE, LOCK_ACQUIRE, LOCK_CONTENDED, LOCK_RELEASE);

  /** kernel/trace/ring_buffer.c ring_buffer_print_page_header, for a 64-bit kernel. */
  static final String HEADER_PAGE =
      "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
          + "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
          + "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
          + "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";
  /** kernel/trace/ring_buffer.c ring_buffer_print_entry_header. */
  static final String HEADER_EVENT =
      "# compressed entry header\n"
          + "\ttype_len    :    5 bits\n"
          + "\ttime_delta  :   27 bits\n"
          + "\tarray       :   32 bits\n"
          + "\n"
          + "\tpadding     : type == 29\n"
          + "\ttime_extend : type == 30\n"
          + "\ttime_stamp : type == 31\n"
          + "\tdata max type_len  == 28\n";

  /** One CPU's ring buffer: full pages, and the page being filled. */
  private static final class CpuBuffer {
    final ByteArrayOutputStream pages = new ByteArrayOutputStream();
    final byte[] page = new byte[PAGE_SIZE];
    int used = PAGE_HEADER; // bytes of the page in use, header included
    long lastNs = -1; // the time of the page's last entry; -1 while the page is empty

    void closePage() {
      if (lastNs < 0) {
        return;
      }
      putLong(page, 8, used - PAGE_HEADER);
      pages.write(page, 0, PAGE_SIZE);
      java.util.Arrays.fill(page, (byte) 0);
      used = PAGE_HEADER;
      lastNs = -1;
    }
  }

  private final CpuBuffer[] cpus;
  private long events;

  /** An empty file for a machine of {@code cpuCount} CPUs. */
  TraceDat(int cpuCount) {
    cpus = new CpuBuffer[cpuCount];
    for (int i = 0; i < cpuCount; i++) {
      cpus[i] = new CpuBuffer();
    }
  }

  long events() {
    return events;
  }

  /**
   * Appends event {@code f} at {@code ns} on {@code cpu}, by the task {@code pid}, with the
   * latency columns {@code flags} (FLAG_*) and {@code preemptDepth}, and the values of its
   * fields in order: an Integer or Long for a number, a String for a comm or a string. Events
   * of one CPU come in time order.
   */
  void record(int cpu, long ns, Format f, int flags, int preemptDepth, int pid, Object... values) {
    if (values.length != f.fields().size()) {
      throw new IllegalArgumentException(f.name() + ": " + f.fields().size() + " fields, got " + values.length);
    }
    byte[] payload = payload(f, flags, preemptDepth, pid, values);
    int dataBytes = (payload.length + 3) & ~3;
    int entry = payload.length <= TYPE_LEN_MAX_DATA * 4 ? 4 + dataBytes : 8 + dataBytes;
    if (PAGE_HEADER + 8 + entry > PAGE_SIZE) {
      throw new IllegalArgumentException(f.name() + ": an event of " + payload.length
          + " bytes does not fit a ring-buffer page");
    }
    CpuBuffer b = cpus[cpu];
    if (b.lastNs >= 0 && ns < b.lastNs) {
      throw new IllegalStateException("cpu" + cpu + ": an event at " + ns + " ns after one at " + b.lastNs);
    }
    long delta = b.lastNs < 0 ? 0 : ns - b.lastNs;
    int extend = delta > DELTA_MAX ? 8 : 0;
    if (b.used + extend + entry > PAGE_SIZE) {
      b.closePage();
      delta = 0;
      extend = 0;
    }
    if (b.lastNs < 0) {
      putLong(b.page, 0, ns);
    }
    if (extend > 0) {
      putInt(b.page, b.used, (int) ((delta & DELTA_MAX) << 5) | TYPE_TIME_EXTEND);
      putInt(b.page, b.used + 4, (int) (delta >>> 27));
      b.used += 8;
      delta = 0;
    }
    if (payload.length <= TYPE_LEN_MAX_DATA * 4) {
      putInt(b.page, b.used, (int) (delta << 5) | (dataBytes / 4));
      System.arraycopy(payload, 0, b.page, b.used + 4, payload.length);
    } else {
      putInt(b.page, b.used, (int) (delta << 5));
      putInt(b.page, b.used + 4, dataBytes + 4); // rb_update_event: the aligned length, with this word
      System.arraycopy(payload, 0, b.page, b.used + 8, payload.length);
    }
    b.used += entry;
    b.lastNs = ns;
    events++;
  }

  private static byte[] payload(Format f, int flags, int preemptDepth, int pid, Object[] values) {
    List<byte[]> dynamic = new ArrayList<>();
    int fixed = f.fixedSize();
    int dynamicBytes = 0;
    for (int i = 0; i < values.length; i++) {
      if (f.fields().get(i).kind() == Kind.STRING) {
        byte[] s = (values[i] + "\0").getBytes(StandardCharsets.UTF_8);
        dynamic.add(s);
        dynamicBytes += s.length;
      }
    }
    byte[] p = new byte[fixed + dynamicBytes];
    putShort(p, 0, f.id());
    p[2] = (byte) flags;
    p[3] = (byte) Math.min(preemptDepth, 15);
    putInt(p, 4, pid);
    int at = 8;
    int dynAt = fixed;
    int d = 0;
    for (int i = 0; i < values.length; i++) {
      Field field = f.fields().get(i);
      switch (field.kind()) {
        case INT -> putInt(p, at, ((Number) values[i]).intValue());
        case LONG -> putLong(p, at, ((Number) values[i]).longValue());
        case COMM -> {
          byte[] comm = ((String) values[i]).getBytes(StandardCharsets.UTF_8);
          System.arraycopy(comm, 0, p, at, Math.min(comm.length, 15)); // TASK_COMM_LEN 16, NUL-terminated
        }
        case STRING -> {
          byte[] s = dynamic.get(d++);
          putInt(p, at, s.length << 16 | dynAt);
          System.arraycopy(s, 0, p, dynAt, s.length);
          dynAt += s.length;
        }
      }
      at += field.size();
    }
    return p;
  }

  /**
   * The whole file, with {@code cmdlines} (pid to comm, as saved_cmdlines lists them) for the
   * task column. The buffers' last pages are closed: record nothing after this.
   */
  byte[] bytes(Map<Integer, String> cmdlines) {
    Out o = new Out();
    o.bytes(new byte[] {0x17, 0x08, 0x44});
    o.ascii("tracing");
    o.ascii("6\0");
    o.u8(0); // little endian
    o.u8(8); // long
    o.u32(PAGE_SIZE);
    o.ascii("header_page\0");
    o.u64(HEADER_PAGE.length());
    o.ascii(HEADER_PAGE);
    o.ascii("header_event\0");
    o.u64(HEADER_EVENT.length());
    o.ascii(HEADER_EVENT);
    o.u32(0); // ftrace's own event formats
    Map<String, List<Format>> systems = new TreeMap<>();
    for (Format f : FORMATS) {
      systems.computeIfAbsent(f.system(), s -> new ArrayList<>()).add(f);
    }
    o.u32(systems.size());
    systems.forEach((system, formats) -> {
      o.ascii(system + "\0");
      o.u32(formats.size());
      for (Format f : formats) {
        byte[] text = f.text().getBytes(StandardCharsets.UTF_8);
        o.u64(text.length);
        o.bytes(text);
      }
    });
    o.u32(0); // kallsyms
    o.u32(0); // printk formats
    StringBuilder saved = new StringBuilder();
    new TreeMap<>(cmdlines).forEach((pid, comm) -> saved.append(pid).append(' ').append(comm).append('\n'));
    byte[] cmd = saved.toString().getBytes(StandardCharsets.UTF_8);
    o.u64(cmd.length);
    o.bytes(cmd);
    o.u32(cpus.length);
    o.ascii("options  \0");
    byte[] clock = "[local] global counter\n\0".getBytes(StandardCharsets.US_ASCII);
    o.u16(4); // TRACECMD_OPTION_TRACECLOCK: nanoseconds of one clock for every CPU
    o.u32(clock.length);
    o.bytes(clock);
    o.u16(0); // TRACECMD_OPTION_DONE
    o.ascii("flyrecord\0");
    long[] sizes = new long[cpus.length];
    for (int i = 0; i < cpus.length; i++) {
      cpus[i].closePage();
      sizes[i] = cpus[i].pages.size();
    }
    long offset = align(o.size() + 16L * cpus.length);
    for (int i = 0; i < cpus.length; i++) {
      o.u64(offset);
      o.u64(sizes[i]);
      offset = align(offset + sizes[i]);
    }
    for (CpuBuffer b : cpus) {
      o.padTo(align(o.size()));
      o.bytes(b.pages.toByteArray());
    }
    return o.toByteArray();
  }

  private static long align(long n) {
    return (n + PAGE_SIZE - 1) / PAGE_SIZE * PAGE_SIZE;
  }

  private static void putShort(byte[] b, int at, int v) {
    b[at] = (byte) v;
    b[at + 1] = (byte) (v >>> 8);
  }

  private static void putInt(byte[] b, int at, int v) {
    for (int i = 0; i < 4; i++) {
      b[at + i] = (byte) (v >>> (8 * i));
    }
  }

  private static void putLong(byte[] b, int at, long v) {
    for (int i = 0; i < 8; i++) {
      b[at + i] = (byte) (v >>> (8 * i));
    }
  }

  /** A little-endian byte sink. */
  private static final class Out extends ByteArrayOutputStream {
    void u8(int v) {
      write(v);
    }

    void u16(int v) {
      write(v);
      write(v >>> 8);
    }

    void u32(long v) {
      for (int i = 0; i < 4; i++) {
        write((int) (v >>> (8 * i)));
      }
    }

    void u64(long v) {
      for (int i = 0; i < 8; i++) {
        write((int) (v >>> (8 * i)));
      }
    }

    void ascii(String s) {
      bytes(s.getBytes(StandardCharsets.UTF_8));
    }

    void bytes(byte[] b) {
      write(b, 0, b.length);
    }

    void padTo(long n) {
      while (size() < n) {
        write(0);
      }
    }
  }
}
