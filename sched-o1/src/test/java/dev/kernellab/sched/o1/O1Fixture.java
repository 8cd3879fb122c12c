package dev.kernellab.sched.o1;

import dev.kernellab.kernel.StandaloneSchedulerHost;
import dev.kernellab.kernel.Task;
import dev.kernellab.kernel.TestTasks;
import dev.kernellab.kernel.spi.SchedPolicy;

/** A booted O(1) scheduler on a standalone host at HZ=100, with shortcuts for the tests. */
final class O1Fixture {

  final StandaloneSchedulerHost h;
  final O1Scheduler s;
  private int nextPid = 1;

  O1Fixture(int cpus) {
    this(cpus, O1Tunables.forHz(100));
  }

  O1Fixture(int cpus, O1Tunables tunables) {
    s = new O1Scheduler(tunables);
    h = new StandaloneSchedulerHost(s, cpus, tunables.hz());
  }

  Task hog(int cpu) {
    return task(cpu, 0);
  }

  Task task(int cpu, int nice) {
    int pid = nextPid++;
    return h.spawn(TestTasks.user(pid, "t" + pid, SchedPolicy.OTHER, 0, nice), cpu);
  }

  Task rt(int cpu, SchedPolicy policy, int rtPriority) {
    int pid = nextPid++;
    return h.spawn(TestTasks.user(pid, "rt" + pid, policy, rtPriority, 0), cpu);
  }

  Task fork(int cpu) {
    return h.fork(cpu, TestTasks.other(nextPid++));
  }

  static O1Entity e(Task t) {
    return O1Scheduler.entity(t);
  }

  Runqueue rq(int cpu) {
    return s.rq(cpu);
  }

  /** {@code n} timer ticks; after each, every CPU with need_resched schedules (return to user). */
  void run(int n) {
    for (int i = 0; i < n; i++) {
      h.tick();
      for (int c = 0; c < h.cpuCount(); c++) {
        if (h.current(c).needResched()) {
          h.schedule(c);
        }
      }
    }
  }
}
