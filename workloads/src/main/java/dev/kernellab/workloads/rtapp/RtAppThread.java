package dev.kernellab.workloads.rtapp;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.Guard;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.Calibration;
import dev.kernellab.paths.fs.FileIo;
import dev.kernellab.paths.kernel.Sched;
import dev.kernellab.paths.kernel.Timer;
import java.util.function.Consumer;

/**
 * One rt-app thread ({@code <task>-<index>}) as a user program on Linux 2.4.17, with its
 * per-loop figures and its log. Each rt-app event becomes the user-mode work and the system
 * calls it was on 2.4; {@link RtAppWorkload} composes the threads.
 *
 * <p>Implementation overview. The program is rt-app's thread_body (src/rt-app.c): the delay,
 * then {@code loop} runs of the phases, each phase {@code loop} runs of its events, a log row
 * after each run of a phase; it stops at a phase boundary once the file's {@code duration} is
 * over, and exits. The events, one by one, and what 2.4 had:
 *
 * <pre>
 * run N       waste_cpu_cycles: user-mode compute, N us of the calibrated CPU (see {@link #SIM_NS_PER_LOOP})
 * runtime N   the same in 32 us bursts until the clock says N us have passed (preemption counts)
 * sleep N     nanosleep(N us): 2.4's sys_nanosleep, whole jiffies plus one, or a udelay
 *             busy-wait for a real-time task asking for 2 ms or less
 * timer P     rt-app's clock_nanosleep(TIMER_ABSTIME) to the next expiry; 2.4 has no
 *             clock_nanosleep, so the thread reads the clock and nanosleeps for what is left,
 *             as cyclictest did on 2.4; wu_lat = wake-up time - expiry
 * mem B       memset of B bytes of the thread's buffer in chunks of mem_buffer_size; each page
 *             faults (do_anonymous_page) the first time it is written, unless lock_pages made
 *             mlockall fault them all at the thread's start
 * iorun B     write(io_device, buffer, chunk): /dev/null is drivers/char/mem.c write_null;
 *             any other device is taken as a regular ext2 file of that name (generic_file_write)
 * yield      sched_yield: 2.4's sys_sched_yield (rt-app calls sched_yield() itself, src/rt-app.c)
 * lock/unlock, wait/signal/broad/sync, barrier, suspend/resume: LinuxThreads ({@link LinuxThreads})
 * </pre>
 *
 * <p>Reading the clock is free here; on 2.4 it was a gettimeofday system call of about a
 * microsecond, which the model leaves out of every event.
 */
final class RtAppThread {

  /**
   * The simulated machine's ns per loop of rt-app's waste_cpu_cycles (12 ldexp calls a loop):
   * assumption, 600 ns on the 800 MHz Pentium III (about 40 cycles per ldexp through the x87
   * fscale; no measurement of it is cited). rt-app's "CPUn" calibration measures this figure,
   * so a run of N us takes N us whatever it is; a calibration given in ns per loop was measured
   * on another machine and scales the runs by this figure over that one, as on real hardware.
   */
  static final long SIM_NS_PER_LOOP = 600;
  /** runtime's burst: loadwait(32) (src/rt-app.c, rtapp_runtime). */
  static final long RUNTIME_BURST_US = 32;
  /** memset of one 4 KiB page of user memory: the catalog's page-copy figure (Calibration.COPY_PAGE_NS), an assumption. */
  static final long MEMSET_PAGE_NS = Calibration.COPY_PAGE_NS;
  /** drivers/char/mem.c write_null and the fget/fput around it: a null system call's body, assumption. */
  static final long WRITE_NULL_NS = Calibration.NULL_SYSCALL_NS;
  /** A regular-file io_device is rewritten from its start every 64 MiB (assumption: a bounded file, as a device is). */
  static final long IO_FILE_BYTES = 64L << 20;
  static final long PAGE = 4_096;

  final RtAppFile.TaskDef def;
  final int index;
  final String comm;
  final LinuxThreads.Waiter waiter;
  final RtAppLog log;
  private final RtAppRun run;
  private final long pLoadNs; // rt-app's p_load: ns per loop of the calibration
  private final FileIo io = new FileIo();

  // per-run state of the program (rt-app's locals and ldata)
  private long tFirst;
  private long threadIter;
  private final long[] phaseIter;
  private long loopStart;
  private long perf;
  private long runNs;
  private long cDurationUs;
  private long cPeriodUs;
  private long slackUs;
  private long wuLatUs;
  private long eventStart;
  private long leftNs; // what a nanosleep is asked for, worked out in user space before the call
  private boolean timerSleeps;
  private RtAppRun.TimerState timer;
  private boolean armed;
  private boolean barrierLast;
  private long bytesLeft;
  private long chunk;
  private long touchedPages;
  private long newPages;
  private long ioOffset;
  long overruns;
  long wakeUps;

  RtAppThread(RtAppRun run, RtAppFile.TaskDef def, int index, int threads) {
    this.run = run;
    this.def = def;
    this.index = index;
    this.comm = def.name() + "-" + index;
    int rank = def.policy().isRealTime() ? 1_000 + def.priority() : -def.priority();
    this.waiter = new LinuxThreads.Waiter(comm, rank, threads);
    this.log = new RtAppLog(comm, index);
    this.phaseIter = new long[def.phases().size()];
    this.pLoadNs = run.file.global().calibrationNsPerLoop() > 0 ? run.file.global().calibrationNsPerLoop() : SIM_NS_PER_LOOP;
  }

  /** The boot task: the program, its policy and priority, its CPUs. */
  TaskSpec task() {
    TaskSpec t = TaskSpec.user(comm, program());
    t = switch (def.policy()) {
      case FIFO -> t.fifo(def.priority());
      case RR -> t.rr(def.priority());
      default -> t.nice(def.priority());
    };
    if (!def.cpus().isEmpty()) {
      long mask = 0;
      for (int c : def.cpus()) {
        mask |= 1L << c;
      }
      t = t.allowedOn(mask).onCpu(def.cpus().get(0));
    }
    return t;
  }

  /** {@code if (g) body;} in a user program: a loop that runs its body at most once. */
  private Consumer<KernelPath.Builder> when(String label, Guard g, Consumer<KernelPath.Builder> body) {
    return b -> b.probe((c, t, now) -> armed = true).loopWhile(label, c -> {
      if (!armed) {
        return false;
      }
      armed = false;
      return g.test(c);
    }, body);
  }

  private boolean running(long now) {
    return run.file.global().durationS() <= 0 || now < run.tZero + run.file.global().durationS() * 1_000_000_000L;
  }

  private KernelPath nanosleep() {
    return KernelPath.path("kernel/timer.c", "sys_nanosleep")
        .compute(Timer.NANOSLEEP_SETUP_NS)
        .nanosleep(c -> leftNs)
        .build();
  }

  private KernelPath program() {
    KernelPath.Builder b = KernelPath.userProgram(comm);
    b.probe((c, t, now) -> {
      run.started(now);
      tFirst = run.tZero + def.delayUs() * 1_000;
    });
    if (run.file.global().lockPages() && usesBuffer()) {
      b.syscall(mlockall());
    }
    when("delay", c -> c.now() < tFirst, d -> d
        .probe((c, t, now) -> leftNs = tFirst - now)
        .syscall(nanosleep())).accept(b);
    b.loopWhile("thread_loop", c -> running(c.now()) && (def.loop() < 0 || threadIter < def.loop()), l -> {
      for (int p = 0; p < def.phases().size(); p++) {
        int phase = p;
        RtAppFile.Phase ph = def.phases().get(p);
        l.probe((c, t, now) -> phaseIter[phase] = 0);
        l.loopWhile("phase " + ph.name(), c -> running(c.now()) && (ph.loop() < 0 || phaseIter[phase] < ph.loop()),
            body -> {
              body.probe((c, t, now) -> beginLoop(now));
              for (RtAppEvent e : ph.events()) {
                event(body, e);
              }
              body.probe((c, t, now) -> {
                endLoop(now);
                phaseIter[phase]++;
              });
            });
      }
      l.probe((c, t, now) -> threadIter++);
    });
    return b.syscall(run.paths.exit().sysExit).build();
  }

  private boolean usesBuffer() {
    return def.phases().stream().anyMatch(p -> p.events().stream().anyMatch(e -> e instanceof RtAppEvent.Mem));
  }

  /** mlockall(MCL_CURRENT | MCL_FUTURE): make_pages_present faults the thread's whole buffer in. */
  @Models(file = "mm/mlock.c", function = "sys_mlockall", version = "2.4.17")
  private KernelPath mlockall() {
    Site present = new Site("mm/mlock.c", "sys_mlockall", "make_pages_present");
    long pages = (run.file.global().memBufferSize() + PAGE - 1) / PAGE;
    return KernelPath.path("mm/mlock.c", "sys_mlockall")
        .loop(present, pages, p -> p.call(run.paths.memory().anonymousFault))
        .effect("the buffer is resident", c -> touchedPages = pages)
        .build();
  }

  private void beginLoop(long now) {
    loopStart = now;
    perf = 0;
    runNs = 0;
    cDurationUs = 0;
    cPeriodUs = 0;
    slackUs = 0;
    wuLatUs = 0;
  }

  private void endLoop(long now) {
    log.add(perf, runNs / 1_000, (now - loopStart) / 1_000, loopStart / 1_000, now / 1_000,
        (loopStart - run.tZero) / 1_000, slackUs, cDurationUs, cPeriodUs, wuLatUs);
    run.progress++;
  }

  private void event(KernelPath.Builder b, RtAppEvent e) {
    if (e instanceof RtAppEvent.Run r && !r.wallClock()) {
      b.probe((c, t, now) -> {
        cDurationUs += r.us();
        perf += r.us() / pLoadNs;
        eventStart = now;
      })
          .compute((r.us() * 1_000 / pLoadNs) * SIM_NS_PER_LOOP)
          .probe((c, t, now) -> runNs += now - eventStart);
    } else if (e instanceof RtAppEvent.Run r) {
      b.probe((c, t, now) -> {
        cDurationUs += r.us();
        eventStart = now;
      })
          .loopWhile(r.key(), c -> c.now() - eventStart < r.us() * 1_000, burst -> burst
              .compute((RUNTIME_BURST_US * 1_000 / pLoadNs) * SIM_NS_PER_LOOP)
              .probe((c, t, now) -> perf += RUNTIME_BURST_US / pLoadNs))
          .probe((c, t, now) -> runNs += now - eventStart);
    } else if (e instanceof RtAppEvent.Sleep s) {
      b.syscall(Timer.sysNanosleep(s.us() * 1_000));
    } else if (e instanceof RtAppEvent.Timer tm) {
      timer(b, tm);
    } else if (e instanceof RtAppEvent.Mem m) {
      mem(b, m);
    } else if (e instanceof RtAppEvent.IoRun io) {
      iorun(b, io);
    } else if (e instanceof RtAppEvent.Lock l) {
      lock(b, run.threads.mutex(l.mutex()));
    } else if (e instanceof RtAppEvent.Unlock u) {
      unlock(b, run.threads.mutex(u.mutex()));
    } else if (e instanceof RtAppEvent.Wait w) {
      condWait(b, run.threads.cond(w.cond()), run.threads.mutex(w.mutex()));
    } else if (e instanceof RtAppEvent.Signal s) {
      condSignal(b, run.threads.cond(s.cond()), false);
    } else if (e instanceof RtAppEvent.Broad s) {
      condSignal(b, run.threads.cond(s.cond()), true);
    } else if (e instanceof RtAppEvent.Sync s) {
      condSignal(b, run.threads.cond(s.cond()), false);
      condWait(b, run.threads.cond(s.cond()), run.threads.mutex(s.mutex()));
    } else if (e instanceof RtAppEvent.Barrier br) {
      barrier(b, run.barrier(br.name()));
    } else if (e instanceof RtAppEvent.Suspend s) {
      LinuxThreads.Mutex m = run.threads.mutex(s.task());
      lock(b, m);
      condWait(b, run.threads.cond(s.task()), m);
      unlock(b, m);
    } else if (e instanceof RtAppEvent.Yield) {
      // rt-app's yield event calls sched_yield() (src/rt-app.c run_event)
      b.syscall(Sched.sysSchedYield());
    } else if (e instanceof RtAppEvent.Resume r) {
      LinuxThreads.Mutex m = run.threads.mutex(r.task());
      lock(b, m);
      condSignal(b, run.threads.cond(r.task()), true);
      unlock(b, m);
    } else {
      throw new IllegalStateException("an rt-app event with no mapping: " + e);
    }
  }

  private void timer(KernelPath.Builder b, RtAppEvent.Timer tm) {
    RtAppRun.TimerState state = tm.unique() ? run.uniqueTimer(this, tm.ref()) : run.timer(tm.ref());
    long periodNs = tm.periodUs() * 1_000;
    b.probe((c, t, now) -> {
      timer = state;
      cPeriodUs += tm.periodUs();
      if (!state.init) {
        state.init = true;
        state.next = tFirst;
      }
      state.next += periodNs;
      long slack = (state.next - now) / 1_000;
      slackUs = run.file.global().cumulativeSlack() ? slackUs + slack : slack;
      timerSleeps = now < state.next;
      if (timerSleeps) {
        leftNs = state.next - now;
      } else {
        overruns++;
        if (!tm.absolute()) {
          state.next = now;
        }
        wuLatUs = 0;
      }
    });
    when("timer " + tm.ref(), c -> timerSleeps, s -> s
        .syscall(nanosleep())
        .probe((c, t, now) -> {
          long wu = now - timer.next;
          wuLatUs += wu / 1_000;
          wakeUps++;
          run.sample(this, t, timer.next, now, c.id());
        })).accept(b);
  }

  private void mem(KernelPath.Builder b, RtAppEvent.Mem m) {
    long buffer = run.file.global().memBufferSize();
    Site first = new Site("user:" + comm, comm, m.key() + ": first touch");
    b.probe((c, t, now) -> bytesLeft = m.bytes())
        .loopWhile(m.key(), c -> bytesLeft > 0, chunkLoop -> chunkLoop
            .probe((c, t, now) -> {
              chunk = Math.min(bytesLeft, buffer);
              long pages = (chunk + PAGE - 1) / PAGE;
              newPages = Math.max(0, pages - touchedPages);
              touchedPages = Math.max(touchedPages, pages);
              bytesLeft -= chunk;
            })
            .loop(first, c -> newPages, p -> p.pageFault(run.paths.memory().anonymousFault))
            .compute("memset", c -> chunk * MEMSET_PAGE_NS / PAGE));
  }

  private void iorun(KernelPath.Builder b, RtAppEvent.IoRun ior) {
    long buffer = run.file.global().memBufferSize();
    KernelPath write = run.devNull()
        ? KernelPath.path("drivers/char/mem.c", "write_null").compute(WRITE_NULL_NS).build()
        : run.paths.filemap().sysWrite;
    b.probe((c, t, now) -> bytesLeft = ior.bytes())
        .loopWhile(ior.key(), c -> bytesLeft > 0, w -> w
            .probe((c, t, now) -> {
              chunk = Math.min(bytesLeft, buffer);
              bytesLeft -= chunk;
              if (ioOffset + chunk > IO_FILE_BYTES) {
                ioOffset = 0;
              }
            })
            .syscall(write, c -> io.on(run.ioFile(), ioOffset, chunk))
            .probe((c, t, now) -> ioOffset += chunk));
  }

  // ---- LinuxThreads ----

  private void lock(KernelPath.Builder b, LinuxThreads.Mutex m) {
    b.compute(LinuxThreads.CAS_NS)
        .loopWhile("__pthread_lock " + m.name, c -> !m.tryLock(waiter, c.now()), s -> s
            .syscall(run.sigsuspend(this))
            .compute(LinuxThreads.CAS_NS));
  }

  private void restartOwed(KernelPath.Builder b, String label) {
    b.loopWhile("restart " + label, c -> (waiter.killTarget = waiter.toRestart.poll()) != null,
        k -> k.syscall(run.kill(this)));
  }

  private void unlock(KernelPath.Builder b, LinuxThreads.Mutex m) {
    b.compute(LinuxThreads.CAS_NS).probe((c, t, now) -> m.unlock(waiter));
    restartOwed(b, "__pthread_unlock " + m.name);
  }

  private void condWait(KernelPath.Builder b, LinuxThreads.Cond cv, LinuxThreads.Mutex m) {
    b.compute(LinuxThreads.CAS_NS).probe((c, t, now) -> cv.enqueue(waiter));
    unlock(b, m);
    b.loopWhile("pthread_cond_wait " + cv.name, c -> cv.waiters.contains(waiter),
        s -> s.syscall(run.sigsuspend(this)));
    lock(b, m);
  }

  private void condSignal(KernelPath.Builder b, LinuxThreads.Cond cv, boolean all) {
    b.compute(LinuxThreads.CAS_NS).probe((c, t, now) -> {
      while (!cv.waiters.isEmpty()) {
        waiter.toRestart.add(cv.waiters.remove(0));
        if (!all) {
          break;
        }
      }
    });
    restartOwed(b, (all ? "pthread_cond_broadcast " : "pthread_cond_signal ") + cv.name);
  }

  /** rt-app's barrier: the last to arrive broadcasts, the others wait (src/rt-app.c, rtapp_barrier). */
  private void barrier(KernelPath.Builder b, RtAppRun.BarrierState br) {
    lock(b, br.mutex);
    b.probe((c, t, now) -> {
      barrierLast = br.waiting == 0;
      if (!barrierLast) {
        br.waiting--;
      }
    });
    when("barrier " + br.name + ": last", c -> barrierLast, l -> condSignal(l, br.cond, true)).accept(b);
    when("barrier " + br.name + ": wait", c -> !barrierLast, w -> {
      condWait(w, br.cond, br.mutex);
      w.probe((c, t, now) -> br.waiting++);
    }).accept(b);
    unlock(b, br.mutex);
  }
}
