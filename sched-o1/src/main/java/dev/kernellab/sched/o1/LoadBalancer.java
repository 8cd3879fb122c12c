package dev.kernellab.sched.o1;

import static dev.kernellab.sched.o1.O1Tunables.MAX_PRIO;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.spi.SchedulerHost;
import dev.kernellab.kernel.spi.TaskView;

/**
 * Models kernel/sched.c: {@code load_balance()} and {@code double_lock_balance()} (2.5.5, K3):
 * a CPU pulls work from the busiest other runqueue. SMP only; pull-only.
 *
 * <p>Callers: {@code schedule()} on an empty runqueue and {@code idle_tick} every
 * IDLE_REBALANCE_TICK (idle), {@code scheduler_tick} every BUSY_REBALANCE_TICK (busy).
 */
final class LoadBalancer {

  /*
   * Implementation overview
   *
   * 1. Loads are damped with prev_nr_running[]: when busy, this CPU counts itself at the max of
   *    now and its last look, and every other CPU at the min, so a momentary spike neither
   *    attracts nor triggers a pull. Idle callers use the current values.
   * 2. The busiest CPU needs load >= 2 (max_load starts at 1); ties keep the lower CPU.
   * 3. Busy callers need imbalance = (max_load - mine) / 2 >= (max_load + 3) / 4, about 25 %.
   * 4. Source: busiest's expired array first (cache-cold, will not run soon), then its active
   *    array. Priorities are searched best first, RT included (2.5.3 started at 128).
   * 5. At each priority only the TAIL task is examined. 2.5.5 starts at head->prev and, when that
   *    task may not move, steps to ->next, which from the tail is the list head, so it moves on
   *    to the next priority. This is 2.5.5's tail-only bug, fixed in 2.5.27; modelled as written.
   * 6. At most one task per idle call; a busy call may take a second, from the active array,
   *    only after its first came from the expired array.
   *
   * Locking: double_lock_balance try-locks busiest and, if that fails and busiest sorts lower,
   * drops this runqueue's lock and recomputes the load. A single-threaded simulation never
   * fails the try-lock, so the load read in step 1 stands (2.5.5's fix b45a640b re-checks with
   * it; K3 re-checked with this_rq->nr_running).
   */

  private final Runqueue[] runqueues;
  private final O1Tunables tunables;
  private final SchedulerHost host;

  LoadBalancer(Runqueue[] runqueues, O1Tunables tunables, SchedulerHost host) {
    this.runqueues = runqueues;
    this.tunables = tunables;
    this.host = host;
  }

  /** {@code load_balance(this_rq, idle)}; returns the number of tasks pulled (0..2). */
  @Models(file = "kernel/sched.c", function = "load_balance", version = "2.5.5")
  @Models(file = "kernel/sched.c", function = "double_lock_balance", version = "2.5.5")
  int loadBalance(Runqueue thisRq, boolean idle) {
    if (runqueues.length < 2) {
      return 0;
    }
    int thisCpu = thisRq.cpu;
    int[] prev = thisRq.prevNrRunning;
    int nrRunning =
        idle || thisRq.nrRunning > prev[thisCpu] ? thisRq.nrRunning : prev[thisCpu];

    Runqueue busiest = null;
    int maxLoad = 1;
    for (int i = 0; i < runqueues.length; i++) {
      Runqueue src = runqueues[i];
      int load = idle || src.nrRunning < prev[i] ? src.nrRunning : prev[i];
      prev[i] = src.nrRunning;
      if (load > maxLoad && src != thisRq) {
        busiest = src;
        maxLoad = load;
      }
    }
    if (busiest == null) {
      return 0;
    }
    int imbalance = (maxLoad - nrRunning) / 2;
    if (!idle && imbalance < (maxLoad + 3) / 4) {
      return 0;
    }
    if (busiest.nrRunning <= nrRunning + 1) {
      return 0;
    }

    PrioArray array = busiest.expired.nrActive() > 0 ? busiest.expired : busiest.active;
    int pulled = 0;
    while (true) {
      O1Entity next = findMigratable(busiest, array, thisCpu);
      if (next == null) {
        if (array == busiest.expired) {
          array = busiest.active;
          continue;
        }
        return pulled;
      }
      pullTask(busiest, array, next, thisRq);
      pulled++;
      if (!idle && --imbalance != 0 && array == busiest.expired) {
        array = busiest.active;
        continue;
      }
      return pulled;
    }
  }

  /** The first migratable tail, best priority first, or null at the delimiter. */
  private O1Entity findMigratable(Runqueue busiest, PrioArray array, int thisCpu) {
    for (int idx = array.findFirstBit(); idx < MAX_PRIO; idx = array.findNextBit(idx + 1)) {
      O1Entity tmp = array.tail(idx);
      if (canMigrate(tmp, busiest, thisCpu)) {
        return tmp;
      }
    }
    return null;
  }

  /** {@code CAN_MIGRATE_TASK}: not cache-hot, not running, allowed on this CPU. */
  @Models(file = "kernel/sched.c", function = "CAN_MIGRATE_TASK", version = "2.5.5")
  private boolean canMigrate(O1Entity e, Runqueue busiest, int thisCpu) {
    TaskView t = e.task();
    return host.jiffies() - e.sleepTimestamp > tunables.cacheDecayTicks()
        && t != busiest.curr
        && t.mayRunOn(thisCpu);
  }

  /** Moves {@code e} into this runqueue's active array, keeping its prio and time slice. */
  private void pullTask(Runqueue busiest, PrioArray array, O1Entity e, Runqueue thisRq) {
    array.dequeue(e);
    busiest.nrRunning--;
    host.setCpu(e.task(), thisRq.cpu);
    thisRq.nrRunning++;
    thisRq.active.enqueue(e);
    if (e.prio < ((O1Entity) thisRq.curr.schedEntity()).prio) {
      host.setNeedResched(thisRq.curr, true);
    }
  }
}
