package dev.kernellab.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kernellab.kernel.spi.Softirq;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The ftrace text and Chrome JSON that {@code kernel-lab trace} writes, checked against the rules
 * of the kernel events they show rather than against a stored copy: each CPU's task column
 * follows its sched_switch events, interrupt handlers and softirqs nest, the latency columns say
 * what the event implies (a handler runs with interrupts off in hard-irq context), a contended
 * lock's acquisition says how long it spun, the window is inclusive at both ends. Two CPUs so
 * that IPIs and lock contention appear; 50 ms of stress under preempt holds every event kind.
 */
class FtraceWriterTests {

  private static final long DURATION_NS = 50_000_000L;

  private static final Pattern LINE =
      Pattern.compile("^\\s*(.+)-(\\d+) \\[(\\d{3})\\] (\\S)(\\S)(\\S)(\\S)\\s+(\\d+)\\.(\\d{6}): (\\w+): ?(.*)$");

  /** One line of the text. */
  record Event(String task, int pid, int cpu, char irqsOff, char resched, char ctx, char depth, long us, String name,
      String fields) {

    Map<String, String> keyed() {
      Map<String, String> m = new HashMap<>();
      for (String kv : fields.replace("==> ", "").split(" ")) {
        int eq = kv.indexOf('=');
        if (eq > 0) {
          m.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
      }
      return m;
    }
  }

  // made again for each test, not once for the class: PIT counts a test as covering only what
  // runs inside it, and a @BeforeAll runs before any test starts
  private FtraceWriter whole;
  private List<Event> events;
  private JsonNode chrome;

  private static Experiment experiment() {
    return new Experiment("stress", "preempt", "goodness", 2, 100, DURATION_NS, 1, false);
  }

  private static FtraceWriter trace(long fromNs, long toNs, long runNs) {
    FtraceWriter w = new FtraceWriter(fromNs, toNs, true);
    ExperimentRunner.compose(experiment(), w).kernel().run(runNs);
    return w;
  }

  private static List<Event> parse(String text) {
    List<Event> out = new ArrayList<>();
    for (String l : text.lines().toList()) {
      if (l.startsWith("#")) {
        continue;
      }
      Matcher m = LINE.matcher(l);
      assertThat(m.matches()).as("a line of an event: %s", l).isTrue();
      out.add(new Event(m.group(1).strip(), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
          m.group(4).charAt(0), m.group(5).charAt(0), m.group(6).charAt(0), m.group(7).charAt(0),
          Long.parseLong(m.group(8)) * 1_000_000L + Long.parseLong(m.group(9)), m.group(10), m.group(11)));
    }
    return out;
  }

  @BeforeEach
  void traceTheWholeRun() throws Exception {
    whole = trace(0, Long.MAX_VALUE, DURATION_NS);
    events = parse(whole.text());
    chrome = new ObjectMapper().readTree(whole.chromeJson());
  }

  private List<Event> named(String name) {
    return events.stream().filter(e -> e.name().equals(name)).toList();
  }

  @Test
  void theHeaderCountsEveryEventAndTheCpus() {
    assertThat(whole.entries()).isEqualTo((long) events.size()).isGreaterThan(1000L);
    assertThat(whole.text()).startsWith("# tracer: nop")
        .contains(String.format(java.util.Locale.ROOT, "# entries-in-buffer/entries-written: %d/%d   #P:2%n", events.size(), events.size()));
    for (String kind : new String[] {"sched_switch", "sched_wakeup", "irq_handler_entry", "irq_handler_exit",
        "softirq_entry", "softirq_exit", "irq_disable", "irq_enable", "preempt_disable", "preempt_enable",
        "lock_acquire", "lock_release", "lock_contended"}) {
      assertThat(named(kind)).as(kind).isNotEmpty();
    }
  }

  @Test
  void eachCpusTaskColumnIsTheTaskItsLastSwitchRan() {
    Map<Integer, Integer> current = new TreeMap<>();
    for (Event e : events) {
      if (e.name().equals("sched_switch")) {
        Map<String, String> f = e.keyed();
        Integer was = current.put(e.cpu(), Integer.parseInt(f.get("next_pid")));
        if (was != null) {
          assertThat(f.get("prev_pid")).as("%s", e).isEqualTo(String.valueOf(was));
        }
        assertThat(e.pid()).as("%s", e).isEqualTo(Integer.parseInt(f.get("next_pid")));
        assertThat(e.task()).isEqualTo(e.pid() == 0 ? "<idle>" : f.get("next_comm"));
      } else if (current.containsKey(e.cpu())) {
        assertThat(e.pid()).as("%s", e).isEqualTo(current.get(e.cpu()));
      }
    }
    assertThat(current).containsOnlyKeys(0, 1);
  }

  @Test
  void aSwitchPrintsEachTasksPriorityAndStateAsTheKernelWould() {
    Map<String, String> prio = new TreeMap<>();
    for (Event e : named("sched_switch")) {
      Map<String, String> f = e.keyed();
      prio.put(f.get("prev_comm"), f.get("prev_prio"));
      prio.put(f.get("next_comm"), f.get("next_prio"));
      assertThat(f.get("prev_state")).as("%s", e).matches("[RSDTZX]");
      // the switch happens with need_resched cleared and interrupts off (schedule() holds the runqueue lock)
      assertThat(e.resched()).as("%s", e).isEqualTo('.');
      assertThat(e.irqsOff()).as("%s", e).isEqualTo('d');
    }
    // realfeel is SCHED_FIFO at 99: ftrace's prio is 99 - rt_priority; the others are SCHED_OTHER at nice 0
    assertThat(prio).containsEntry("realfeel", "0").containsEntry("nfsd0", "120").containsEntry("swapper/0", "120");
    assertThat(named("sched_switch")).extracting(e -> e.keyed().get("prev_state")).contains("R", "S");
    for (Event e : named("sched_wakeup")) {
      Map<String, String> f = e.keyed();
      if (prio.containsKey(f.get("comm"))) {
        assertThat(f.get("prio")).as("%s", e).isEqualTo(prio.get(f.get("comm")));
      }
      assertThat(f.get("target_cpu")).matches("00[01]");
    }
  }

  @Test
  void handlersNestAndNameTheirInterrupt() {
    // irq 0 the PIT, 8 the RTC, 14 the IDE disk (arch/i386/kernel/i8259.c, drivers/ide); the
    // vectors above the device range are the local APIC's (include/asm-i386/hw_irq.h)
    Map<String, String> names = Map.of("0", "timer", "8", "rtc", "14", "ide0", "239", "local timer",
        "251", "IPI call function", "252", "IPI reschedule");
    Map<Integer, Deque<String>> open = new TreeMap<>();
    Map<Integer, Integer> softirqs = new TreeMap<>();
    for (Event e : events) {
      switch (e.name()) {
        case "irq_handler_entry" -> {
          Matcher m = Pattern.compile("irq=(\\d+) name=(.+)").matcher(e.fields());
          assertThat(m.matches()).as("%s", e).isTrue();
          assertThat(m.group(2)).as("%s", e).isEqualTo(names.get(m.group(1)));
          open.computeIfAbsent(e.cpu(), c -> new ArrayDeque<>()).push(m.group(1));
          assertThat(e.irqsOff()).as("%s", e).isEqualTo('d');
          assertThat(e.ctx()).as("%s", e).isIn('h', 'H');
        }
        case "irq_handler_exit" -> {
          Deque<String> s = open.get(e.cpu());
          assertThat(s).as("an exit without its entry: %s", e).isNotNull().isNotEmpty();
          assertThat(e.fields()).isEqualTo("irq=" + s.pop() + " ret=handled");
        }
        case "softirq_entry" -> {
          Matcher m = Pattern.compile("vec=(\\d+) \\[action=(\\w+)]").matcher(e.fields());
          assertThat(m.matches()).as("%s", e).isTrue();
          assertThat(Softirq.valueOf(m.group(2)).bit()).isEqualTo(1 << Integer.parseInt(m.group(1)));
          assertThat(e.ctx()).as("%s", e).isEqualTo('s');
          assertThat(softirqs.merge(e.cpu(), 1, Integer::sum)).as("softirqs do not nest: %s", e).isEqualTo(1);
        }
        case "softirq_exit" -> assertThat(softirqs.merge(e.cpu(), -1, Integer::sum)).as("%s", e).isZero();
        default -> { }
      }
    }
    assertThat(named("irq_handler_entry")).extracting(e -> e.fields().replaceAll(" name=.*", ""))
        .contains("irq=0", "irq=8", "irq=239", "irq=252");
    assertThat(events).anyMatch(e -> e.ctx() == 'H');
  }

  @Test
  void theLatencyColumnsShowTheStateBeforeEachChangeOfIt() {
    // irq_disable is traced with interrupts still on, irq_enable with them still off
    assertThat(named("irq_disable")).allSatisfy(e -> assertThat(e.irqsOff()).isEqualTo('.'));
    assertThat(named("irq_enable")).allSatisfy(e -> assertThat(e.irqsOff()).isEqualTo('d'));
    assertThat(named("irq_enable")).allSatisfy(e -> assertThat(e.fields()).matches("caller=\\S+ off=\\d+us"));
    assertThat(named("preempt_enable")).allSatisfy(e -> assertThat(e.fields()).matches("caller=\\S+ off=\\d+us"));
    assertThat(named("preempt_disable")).allSatisfy(e -> assertThat(e.fields()).matches("caller=\\S+"));
    assertThat(named("preempt_disable")).extracting(Event::depth).contains('1');
    assertThat(events).anyMatch(e -> e.resched() == 'N');
    assertThat(events).extracting(Event::depth).contains('.', '1', '2');
  }

  @Test
  void aContendedLockSaysHowLongItSpunWhenItIsTaken() {
    Map<Integer, String> contended = new TreeMap<>();
    int spun = 0;
    for (Event e : events) {
      if (e.name().equals("lock_contended")) {
        assertThat(e.fields()).matches("\\S+ caller=\\S+");
        contended.put(e.cpu(), e.fields().split(" ")[0]);
      } else if (e.name().equals("lock_acquire")) {
        String lock = contended.remove(e.cpu());
        if (lock != null) {
          assertThat(e.fields()).as("%s", e).matches(Pattern.quote(lock) + " caller=\\S+ spun=\\d+us");
          spun++;
        } else {
          assertThat(e.fields()).as("%s", e).matches("\\S+ caller=\\S+");
        }
      } else if (e.name().equals("lock_release")) {
        assertThat(e.fields()).as("%s", e).matches("\\S+ caller=\\S+ held=\\d+us");
      }
    }
    assertThat(spun).isPositive();
  }

  @Test
  void chromesEventsAreTheTextsAtTheirExactTimeAndNestOnEachCpu() {
    JsonNode all = chrome.get("traceEvents");
    assertThat(all.size()).isGreaterThan(100);
    Map<Integer, List<Long>> irqNs = new TreeMap<>();
    Map<Integer, Integer> depth = new TreeMap<>();
    Map<Integer, Double> last = new TreeMap<>();
    for (JsonNode n : all) {
      int tid = n.get("tid").asInt();
      String ph = n.get("ph").asText();
      String name = n.get("name").asText();
      double ts = n.get("ts").asDouble();
      assertThat(ts).as("%s", n).isGreaterThanOrEqualTo(last.getOrDefault(tid, 0.0));
      last.put(tid, ts);
      switch (ph) {
        case "B" -> depth.merge(tid, 1, Integer::sum);
        case "E" -> assertThat(depth.merge(tid, -1, Integer::sum)).as("%s", n).isNotNegative();
        case "i" -> {
          assertThat(name).startsWith("wakeup ");
          assertThat(n.get("s").asText()).isEqualTo("t");
        }
        default -> throw new AssertionError("a phase Chrome's format lacks: " + n);
      }
      if (ph.equals("B") && name.startsWith("irq ")) {
        irqNs.computeIfAbsent(tid, c -> new ArrayList<>()).add(Math.round(ts * 1_000));
      }
    }
    // at the end each CPU's task slice stays open, and the handlers and softirqs the text has not closed
    for (int cpu = 0; cpu < 2; cpu++) {
      int c = cpu;
      long unclosed = events.stream().filter(e -> e.cpu() == c).mapToLong(e -> switch (e.name()) {
        case "irq_handler_entry", "softirq_entry" -> 1;
        case "irq_handler_exit", "softirq_exit" -> -1;
        default -> 0;
      }).sum();
      assertThat(depth.get(cpu)).isEqualTo(1 + (int) unclosed);
    }
    // each handler's slice starts at its irq_handler_entry, whose text rounds the time to the nearest us
    for (int cpu = 0; cpu < 2; cpu++) {
      int c = cpu;
      List<Long> textUs = named("irq_handler_entry").stream().filter(e -> e.cpu() == c).map(Event::us).toList();
      assertThat(irqNs.get(cpu)).hasSameSizeAs(textUs);
      for (int i = 0; i < textUs.size(); i++) {
        assertThat((irqNs.get(cpu).get(i) + 500) / 1_000).isEqualTo(textUs.get(i));
      }
    }
  }

  @Test
  void aWindowHoldsTheEventsAtBothItsEndsAndNothingOutside() {
    // two handler entries of the whole run, at their exact nanoseconds, as the window's ends
    List<Long> starts = new ArrayList<>();
    for (JsonNode n : chrome.get("traceEvents")) {
      if (n.get("ph").asText().equals("B") && n.get("name").asText().startsWith("irq ")) {
        starts.add(Math.round(n.get("ts").asDouble() * 1_000));
      }
    }
    long from = starts.get(starts.size() / 3);
    long to = starts.get(2 * starts.size() / 3);
    FtraceWriter w = trace(from, to, to + 1_000_000);
    List<Event> window = parse(w.text());
    assertThat(window).isNotEmpty();
    // the same seed gives the same run: the window is a stretch of the whole run's events
    assertThat(java.util.Collections.indexOfSubList(events, window)).isPositive();
    assertThat(window.get(0).us()).isEqualTo((from + 500) / 1_000);
    assertThat(window.get(window.size() - 1).us()).isEqualTo((to + 500) / 1_000);
    List<Long> chromeNs = new ArrayList<>();
    for (JsonNode n : chrome(w).get("traceEvents")) {
      chromeNs.add(Math.round(n.get("ts").asDouble() * 1_000));
    }
    assertThat(chromeNs).contains(from, to).allSatisfy(ns -> assertThat(ns).isBetween(from, to));
  }

  private static JsonNode chrome(FtraceWriter w) {
    try {
      return new ObjectMapper().readTree(w.chromeJson());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void withoutChromeOrDatTheWriterKeepsOnlyTheText() {
    FtraceWriter w = new FtraceWriter(0, Long.MAX_VALUE, false);
    assertThat(w.text()).contains("entries-in-buffer/entries-written: 0/0   #P:1");
    assertThatThrownBy(w::traceDat).isInstanceOf(IllegalStateException.class);
    ExperimentRunner.compose(experiment(), w).kernel().run(5_000_000L);
    assertThat(w.entries()).isPositive();
    assertThat(w.chromeJson()).isEqualTo("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n\n]}\n");
    assertThatThrownBy(w::traceDat).isInstanceOf(IllegalStateException.class);
  }
}
