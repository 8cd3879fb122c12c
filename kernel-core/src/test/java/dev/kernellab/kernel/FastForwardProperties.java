package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.hw.Rtc;
import dev.kernellab.hw.sim.Event;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.TaskView;
import dev.kernellab.kernel.spi.Tracer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fast-forward changes nothing, over random loop bodies and loads: a task runs a system call
 * whose loop body is decoded from a list of ints (fixed and drawn computes, a plain lock
 * around part of the body, cond_resched, lock breaks on a count or on need_resched, effects
 * that draw from the task's stream and record the instant and the iteration, and now and then
 * an operation that keeps the loop interpreted, and page faults from kernel code), with or without
 * a cond_resched hooked between iterations, then a user loop that touches pages, each a fault; a second task sleeps and wakes (need_resched turns true in the middle of the
 * walk: it is SCHED_FIFO), device interrupts arrive at random instants, on one or two CPUs (the second runs the
 * same walk: the lock is contended). With fast-forward on and off: the same digest of every
 * event every tracer gets, the same effect records, lock statistics, event count and compute
 * time; and fast-forward ran at all over the sample.
 */
class FastForwardProperties {

  private static final long US = 1_000;
  private static final Site WALK = new Site("test/ff.c", "walk_call", "walk");

  /** What a run gives. */
  record Outcome(long digest, long traced, List<Long> records, String locks, long events, long computeNs, long ops,
      long fastForwarded, long steps, long scripted, java.util.Map<String, Long> byPath, long[] stops, long enteredLoops) {}

  /**
   * The events every tracer gets, and the ends of loops run with interrupts off, as the latency
   * anatomy asks for them (no other detail event: none is asked for, so fast-forward may run).
   */
  static final class Coarse implements Tracer {
    final Digest digest = new Digest();
    Kernel kernel;

    @Override
    public void interest(dev.kernellab.kernel.spi.TraceInterest mine) {
      for (dev.kernellab.kernel.spi.TraceInterest.Detail d : dev.kernellab.kernel.spi.TraceInterest.Detail.values()) {
        if (d != dev.kernellab.kernel.spi.TraceInterest.Detail.LOOP_EXITS_IRQS_OFF) {
          mine.dropEverywhere(d);
        }
      }
    }

    @Override
    public void pathExit(long now, int cpu, dev.kernellab.kernel.spi.PathView path) {
      digest.add("exit", now, cpu, path.function(), path.site() == null ? "" : path.site().key(),
          kernel.cpu(cpu).exitedLoopIterations(), kernel.cpu(cpu).interruptsEnabled());
    }

    @Override
    public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
      digest.schedSwitch(now, cpu, prev, next);
    }

    @Override
    public void schedWakeup(long now, int cpu, TaskView task) {
      digest.schedWakeup(now, cpu, task);
    }

    @Override
    public void irqEntry(long now, int cpu, int vector) {
      digest.irqEntry(now, cpu, vector);
    }

    @Override
    public void irqExit(long now, int cpu, int vector) {
      digest.irqExit(now, cpu, vector);
    }
  }

  /** A running hash of events (testkit's TraceDigest is above kernel-core). */
  static final class Digest {
    private long hash = 17;
    private long events;

    void add(Object... parts) {
      hash = hash * 1_000_003L + java.util.Arrays.deepHashCode(parts);
      events++;
    }

    void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
      add("switch", now, cpu, prev.comm(), prev.state(), next.comm());
    }

    void schedWakeup(long now, int cpu, TaskView task) {
      add("wakeup", now, cpu, task.comm());
    }

    void irqEntry(long now, int cpu, int vector) {
      add("irq", now, cpu, vector);
    }

    void irqExit(long now, int cpu, int vector) {
      add("iret", now, cpu, vector);
    }

    long digest() {
      return hash;
    }

    long events() {
      return events;
    }
  }

  // Tokens (mod 12): 0 compute(t us), 1 compute(uniform 1..20 us, drawn), 2 cond_resched,
  // 3 lock break on need_resched, 4 lock break every 7th iteration and on need_resched,
  // 5 an effect that draws and records, 6 lock a region (closed at the end of the body), 7 an
  // effect that records the instant, or a bookkeeping effect that records the iteration only, 8 compute(0), 9 a preempt_disable/enable pair, an irq pair, or
  // spin_lock_irqsave/unlock_irqrestore then a bh pair,
  // 10 a call of a function that locks, draws and records, 11 the same call behind a guard
  // that counts its calls, else another function, 12 a loop inside of 0 to 3 iterations, 13 a
  // page fault (copy_to_user's), whose return to kernel code is a preemption point under
  // CONFIG_PREEMPT.
  static Outcome run(List<Integer> tokens, int loadSeed, boolean fastForward) {
    SpinLock lock = SpinLock.spin("walk_lock");
    SpinLock outer = SpinLock.spin("outer_lock");
    List<Long> records = new ArrayList<>();
    int cpus = 1 + (loadSeed & 1);
    boolean hooked = (loadSeed & 2) != 0;
    long iterations = 50 + (loadSeed >>> 2) % 400;
    // The walk holds outer_lock around the loop when its body breaks it (cond_resched then
    // breaks it too, as it may not schedule with a lock held); the inner lock covers only
    // computes and effects (it is dropped before a reschedule point).
    boolean breaks = tokens.stream().anyMatch(t -> t % 14 == 3 || t % 14 == 4);
    SpinLock calleeLock = SpinLock.spin("callee_lock");
    SpinLock irqLock = SpinLock.spin("irq_lock");
    long[] guardCalls = {0};
    int[] inner = {0};
    KernelPath callee = KernelPath.path("test/ff.c", "callee")
        .compute(2 * US)
        .spinLock(calleeLock)
        .effect("record", c -> records.add(c.now() * 13 + c.runningPath().function().length()))
        .compute(Distribution.uniform(0, 3 * US))
        .spinUnlock(calleeLock)
        .build();
    KernelPath other = KernelPath.path("test/ff.c", "other").compute(US).build();
    // a fault's handler: allocate (a guard that now and then wakes a waiter is not needed: the
    // sleeper wakes by its timer), lock, record, unlock
    KernelPath fault = KernelPath.path("test/ff.c", "do_test_page")
        .compute(Distribution.uniform(US, 4 * US))
        .spinLock(calleeLock)
        .effect("record", c -> records.add(c.now() * 19 + 1))
        .spinUnlock(calleeLock)
        .build();
    KernelPath.Builder walkBuilder = KernelPath.path("test/ff.c", "walk_call");
    if (breaks) {
      walkBuilder.spinLock(outer);
    }
    walkBuilder.loop(WALK, iterations, body -> {
          boolean locked = false;
          for (int t : tokens) {
            int code = t % 14;
            long arg = 1 + (t / 10) % 20;
            if (locked && code >= 9 || locked && (code == 2 || code == 3 || code == 4)) {
              body.spinUnlock(lock);
              locked = false;
            }
            switch (code) {
              case 0 -> body.compute(arg * US);
              case 1 -> body.compute(Distribution.uniform(US, 20 * US));
              case 2 -> {
                if (breaks) {
                  body.condReschedLock(outer, US);
                } else {
                  body.condResched();
                }
              }
              case 3 -> body.condReschedLock(outer, 0);
              case 4 -> body.condReschedLock("break every 7", List.of(outer),
                  CondReschedLock.When.every(7).and(CondReschedLock.When.needResched()),
                  CondReschedLock.Then.SCHEDULE, 2 * US);
              case 5 -> body.effect("draw and record", c -> records.add(c.now() * 31 + c.sample(Distribution.uniform(0, 99))));
              case 6 -> {
                if (!locked) {
                  body.spinLock(lock);
                  locked = true;
                }
              }
              case 7 -> {
                if (arg % 2 == 0) {
                  body.effect("record", c -> records.add(c.now() * 17 + c.loopIndex()));
                } else {
                  // reads no clock: what a bookkeeping effect may do
                  body.bookkeeping("count", c -> records.add(c.loopIndex() * 23 + records.size()));
                }
              }
              case 8 -> body.compute(0);
              case 9 -> {
                switch ((int) (arg % 3)) {
                  case 0 -> body.preemptDisable().compute(US).preemptEnable();
                  case 1 -> {
                    if (arg % 2 == 0) {
                      body.localIrqDisable().compute(3 * US).localIrqEnable();
                    } else {
                      // a loop that ends with interrupts off: its end is told to the tracer
                      body.localIrqDisable()
                          .loop(new Site("test/ff.c", "walk_call", "off" + inner[0]++), Distribution.uniform(0, 3),
                              in -> in.compute(arg * US).compute(US)) // two: no batch of one compute
                          .localIrqEnable();
                    }
                  }
                  default -> body.spinLockIrqSave(irqLock).compute(2 * US).spinUnlockIrqRestore(irqLock)
                      .localBhDisable().compute(US).localBhEnable();
                }
              }
              case 10 -> body.call(callee);
              case 11 -> body.callIfElse("guard", c -> ++guardCalls[0] % 3 != 0, callee, other);
              case 13 -> body.pageFault(fault);
              default -> body.loop(new Site("test/ff.c", "walk_call", "inner" + inner[0]++), Distribution.uniform(0, 3),
                  in -> in.compute(arg * US).effect("record", c -> records.add(c.now() * 7 + c.loopIndex())));
            }
          }
          if (locked) {
            body.spinUnlock(lock);
          }
          body.compute(US); // every iteration takes time
        });
    if (breaks) {
      walkBuilder.spinUnlock(outer);
    }
    KernelPath walk = walkBuilder.build();
    KernelPath walker = KernelPath.userProgram("walker")
        .loop("calls", Long.MAX_VALUE, p -> p.syscall(walk).compute(50 * US)
            .loop("touch", 1 + loadSeed % 40, t -> t.pageFault(fault).compute(US)))
        .build();
    Coarse coarse = new Coarse();
    Kernel k = load(cpus, loadSeed, "walker", walker, coarse, fastForward, b -> {
      if (hooked) {
        b.patch(breaks ? SiteHookPatch.lockBreak(WALK, outer) : SiteHookPatch.condResched(WALK));
      }
    });
    coarse.kernel = k;
    for (long t = 10_000_000; t <= 40_000_000; t += 10_000_000) {
      k.run(t);
    }
    return new Outcome(coarse.digest.digest(), coarse.digest.events(), records,
        lock + " " + lock.acquisitions() + " " + lock.contentions() + " " + lock.maxHoldNs() + " " + lock.totalHoldNs()
            + java.util.Arrays.toString(lock.holdHistogram()) + " " + outer.acquisitions() + " " + outer.maxHoldNs() + " "
            + outer.totalHoldNs() + java.util.Arrays.toString(outer.holdHistogram()) + " " + calleeLock.acquisitions() + " "
            + calleeLock.totalHoldNs() + " " + irqLock.acquisitions() + " " + irqLock.totalHoldNs() + " "
            + irqLock.maxHoldNs(),
        k.eventsFired(), k.machine().cpu(0).computeNs(), k.opsExecuted(), k.opsFastForwarded(), steps(k, cpus), 0,
        java.util.Map.of(), new long[3], k.interpreter.fastForward.enteredLoops());
  }

  @Test
  void randomLoopBodiesAndLoadsGiveTheSameRunWithFastForwardOnAndOff() {
    check(lists().of(integers().between(0, 259)).ofSizeBetween(1, 8));
  }

  /**
   * Bodies that fast-forward runs many iterations of as one step (FastForward.bulk): fixed
   * computes, lock breaks, cond_resched and bookkeeping effects only.
   */
  @Test
  void bodiesRunInBulkGiveTheSameRunWithFastForwardOnAndOff() {
    check(lists().of(integers().between(0, 599).map(FastForwardProperties::bulkToken)).ofSizeBetween(1, 4));
  }

  /** A token of a bulk body: 0, 2, 3, 4, 7 (bookkeeping) or 8, with an argument from {@code t}. */
  static int bulkToken(int t) {
    int code = new int[] {0, 2, 3, 4, 7, 8}[t % 6];
    for (int v = code + 14 * (t / 6 % 19); ; v += 14) {
      long arg = 1 + (v / 10) % 20;
      if (code != 7 || arg % 2 == 1) {
        return v;
      }
    }
  }

  /**
   * Page-touch loops whose iterations run from their script (IterationScript): each touch
   * faults into a handler that draws whether to wake a queue nobody waits on (now and then it
   * does), computes, takes and drops a lock around a bookkeeping count, then returns to user
   * code, which computes; interrupts, a SCHED_FIFO sleeper and, on two CPUs, a second toucher
   * contending for the lock; and a tracer that now and then asks for every path's entry and
   * exit from inside ret_from_exception's cli or iret and drops it at the next. The same run
   * with fast-forward on and off, down to the interpreter's steps; and the script ran.
   */
  @Test
  void touchLoopsRunFromTheirScriptGiveTheSameRunWithFastForwardOnAndOff() {
    long[] scripted = {0};
    long[] stops = {0, 0};
    long[] forced = {0};
    qt().withExamples(60).withShrinkCycles(30)
        .forAll(integers().between(0, 1 << 14))
        .checkAssert(seed -> {
          Outcome off = touch(seed, false);
          Outcome on = touch(seed, true);
          assertSameRun(on, off);
          assertThat(on.steps()).isEqualTo(off.steps());
          assertThat(on.byPath()).isEqualTo(off.byPath());
          scripted[0] += on.scripted();
          stops[0] += on.stops()[0];
          stops[1] += on.stops()[1];
          forced[0] += on.stops()[2];
        });
    assertThat(scripted[0]).as("iterations run from a script").isPositive();
    assertThat(stops[0]).as("scripts stopped by a tracer at ret_from_exception's cli").isPositive();
    assertThat(stops[1]).as("scripts stopped by a tracer at its iret").isPositive();
    assertThat(forced[0]).as("draws of a script left for the loop to take").isPositive();
  }

  /**
   * Tells the digest of every irqs-off stretch with what the CPU shows then (its running path,
   * user mode, declared cause), and of paths while it wants them.
   */
  static final class Fickle implements Tracer {
    final Digest digest = new Digest();
    final int every; // asks for paths at every every-th cli or iret it is told of; 0: never
    dev.kernellab.kernel.spi.TraceInterest mine;
    Kernel kernel;
    long told;
    final boolean[] wanting = new boolean[2]; // per CPU

    Fickle(int every) {
      this.every = every;
    }

    @Override
    public void interest(dev.kernellab.kernel.spi.TraceInterest mine) {
      this.mine = mine;
      for (dev.kernellab.kernel.spi.TraceInterest.Detail d : dev.kernellab.kernel.spi.TraceInterest.Detail.values()) {
        mine.dropEverywhere(d);
      }
    }

    private void maybe(int cpu) {
      if (every == 0) {
        return;
      }
      if (wanting[cpu]) {
        mine.drop(dev.kernellab.kernel.spi.TraceInterest.Detail.PATHS, cpu);
        wanting[cpu] = false;
      } else if (++told % every == 0) {
        mine.want(dev.kernellab.kernel.spi.TraceInterest.Detail.PATHS, cpu);
        wanting[cpu] = true;
      }
    }

    private Object[] shown(int cpu) {
      KernelCpu c = kernel.cpu(cpu);
      KernelPath running = c.runningPath();
      return new Object[] {running == null ? "" : running.function(), c.inUserMode(), String.valueOf(c.declaredCause())};
    }

    @Override
    public void irqsOff(long now, int cpu, dev.kernellab.kernel.spi.PathView path) {
      digest.add("cli", now, cpu, path.function(), shown(cpu));
      maybe(cpu);
    }

    @Override
    public void irqsOn(long now, int cpu, dev.kernellab.kernel.spi.PathView path, long lengthNs) {
      digest.add("sti", now, cpu, path.function(), lengthNs, shown(cpu));
      maybe(cpu);
    }

    @Override
    public void pathEnter(long now, int cpu, dev.kernellab.kernel.spi.PathView path) {
      digest.add("enter", now, cpu, path.function());
    }

    @Override
    public void pathExit(long now, int cpu, dev.kernellab.kernel.spi.PathView path) {
      digest.add("exit", now, cpu, path.function());
    }

    @Override
    public void schedSwitch(long now, int cpu, TaskView prev, TaskView next) {
      digest.schedSwitch(now, cpu, prev, next);
    }

    @Override
    public void irqEntry(long now, int cpu, int vector) {
      digest.irqEntry(now, cpu, vector);
    }
  }

  static Outcome touch(int seed, boolean fastForward) {
    SpinLock ptl = SpinLock.spin("test_page_table_lock");
    List<Long> records = new ArrayList<>();
    int cpus = 1 + (seed & 1);
    double wake = new double[] {0, 0.002, 0.05, 0.3}[(seed >>> 1) & 3];
    boolean locked = (seed & 8) == 0;
    long userNs = new long[] {0, 300, 1_000, 4_000}[(seed >>> 4) & 3];
    int fickle = new int[] {0, 0, 7, 50}[(seed >>> 6) & 3];
    long pages = 1 + (seed >>> 8) % 3_000;
    long heldNs = (seed & 0x2000) == 0 ? 0 : 600; // time under the lock: the second toucher contends
    WaitQueue nobody = new WaitQueue("test_nobody");
    KernelPath alloc = KernelPath.path("test/ff.c", "test_alloc_pages")
        .loop(new Site("test/ff.c", "test_alloc_pages", "wakeup"),
            wake == 0 ? Distribution.fixed(0) : Distribution.empirical(new long[] {0, 1}, new double[] {1 - wake, wake}),
            w -> w.wakeUp(nobody))
        .build();
    KernelPath.Builder hb = KernelPath.path("test/ff.c", "test_anonymous_page").call(alloc).compute(700);
    if (locked) {
      hb.spinLock(ptl);
    }
    if (heldNs > 0) {
      hb.compute(heldNs);
    }
    hb.bookkeeping("count", c -> records.add(c.loopIndex() * 29 + c.current().pid()));
    if (locked) {
      hb.spinUnlock(ptl);
    }
    KernelPath handler = hb.build();
    KernelPath toucher = KernelPath.userProgram("toucher")
        .loop("rounds", Long.MAX_VALUE, p -> p.syscall(KernelPath.path("test/ff.c", "test_mmap").compute(2 * US).build())
            .loop("touch", pages, t -> {
              t.pageFault(handler);
              if (userNs > 0) {
                t.compute(userNs); // else a loop of faults alone, as crashme's
              }
            }))
        .build();
    Fickle tracer = new Fickle(fickle);
    Kernel k = load(cpus, seed, "toucher", toucher, tracer, fastForward, b -> {});
    tracer.kernel = k;
    k.profileOperations();
    k.run(40_000_000);
    // each path's operations, whoever ran them
    java.util.Map<String, Long> byPath = new java.util.TreeMap<>();
    OperationProfile profile = k.operationProfile();
    for (OperationProfile.Count n : profile.byPath()) {
      byPath.merge(n.name(), n.ops(), Long::sum);
    }
    for (OperationProfile.Count n : profile.fastForwardedByPath()) {
      byPath.merge(n.name(), n.ops(), Long::sum);
    }
    long steps = steps(k, cpus);
    long computeNs = 0;
    for (int i = 0; i < cpus; i++) {
      computeNs = computeNs * 31 + k.machine().cpu(i).computeNs();
    }
    FastForward ff = k.interpreter.fastForward;
    return new Outcome(tracer.digest.digest(), tracer.digest.events(), records,
        ptl + " " + ptl.acquisitions() + " " + ptl.contentions() + " " + ptl.maxHoldNs() + " " + ptl.totalHoldNs()
            + java.util.Arrays.toString(ptl.holdHistogram()) + " " + ptl.maxHoldPath(),
        k.eventsFired(), computeNs, k.opsExecuted(), k.opsFastForwarded(), steps, ff.scriptedIterations(), byPath,
        new long[] {ff.scriptStops(0), ff.scriptStops(1), ff.forcedCounts()}, ff.enteredLoops());
  }

  /**
   * A kernel of {@code cpus} CPUs running {@code program} (a second copy on the second CPU) beside
   * a SCHED_FIFO task that sleeps and wakes, with 40 device interrupts at instants drawn from
   * {@code seed} in the first 40 ms, traced by {@code tracer}.
   */
  private static Kernel load(int cpus, int seed, String name, KernelPath program, Tracer tracer, boolean fastForward,
      java.util.function.Consumer<KernelBuilder> more) {
    KernelPath sleeper = KernelPath.userProgram("sleeper")
        .loop("naps", Long.MAX_VALUE, p -> p.syscall(KernelPath.path("test/ff.c", "nap")
            .sleepFor(Distribution.uniform(100 * US, 3_000 * US)).build()).compute(20 * US))
        .build();
    KernelPath handler = KernelPath.path("drivers/test/dev.c", "dev_interrupt").compute(5 * US).build();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCpus(cpus), seed)
        .scheduler(new SimpleRoundRobinScheduler())
        .requestIrq(Rtc.IRQ, "dev", handler, true)
        .task(TaskSpec.user(name, program))
        .task(TaskSpec.user("sleeper", sleeper).fifo(50))
        .debugChecks(new DebugChecks(true, true, true, true, false, true, true))
        .tracer(tracer);
    if (cpus > 1) {
      b.task(TaskSpec.user(name + "2", program));
    }
    more.accept(b);
    Kernel k = b.build();
    k.setFastForward(fastForward);
    java.util.SplittableRandom irqs = new java.util.SplittableRandom(seed);
    for (int i = 0; i < 40; i++) {
      k.machine().simulation().schedule(
          new Event("dev.assert" + i, now -> k.machine().ioApic().assertLine(Rtc.IRQ)), irqs.nextLong(1, 40_000_000));
    }
    return k;
  }

  /** The interpreter's steps on all CPUs of {@code k}: what the soft-lockup guard counts. */
  private static long steps(Kernel k, int cpus) {
    long steps = 0;
    for (int i = 0; i < cpus; i++) {
      steps += k.cpu(i).steps;
    }
    return steps;
  }

  /** The run with fast-forward {@code on} is the run with it {@code off}, as every tracer and count sees it. */
  private static void assertSameRun(Outcome on, Outcome off) {
    assertThat(off.fastForwarded()).isZero();
    assertThat(on.traced()).isEqualTo(off.traced()).isPositive();
    assertThat(on.digest()).isEqualTo(off.digest());
    assertThat(on.records()).isEqualTo(off.records());
    assertThat(on.locks()).isEqualTo(off.locks());
    assertThat(on.events()).isEqualTo(off.events());
    assertThat(on.computeNs()).isEqualTo(off.computeNs());
    assertThat(on.ops() + on.fastForwarded()).isEqualTo(off.ops());
  }

  private static void check(org.quicktheories.core.Gen<List<Integer>> bodies) {
    long[] fastForwarded = {0, 0};
    qt().withExamples(100).withShrinkCycles(50)
        .forAll(bodies, integers().between(0, 1 << 12))
        .checkAssert((tokens, seed) -> {
          Outcome off = run(tokens, seed, false);
          Outcome on = run(tokens, seed, true);
          assertSameRun(on, off);
          assertThat(on.steps()).as("interpreter steps").isEqualTo(off.steps()).isPositive();
          fastForwarded[0] += on.fastForwarded();
          fastForwarded[1] += on.enteredLoops();
        });
    assertThat(fastForwarded[0]).as("fast-forward ran").isPositive();
    assertThat(fastForwarded[1]).as("loops whose first iteration fast-forward ran").isPositive();
  }
}
