package dev.kernellab.kernel;

import dev.kernellab.hw.Models;

/**
 * A counting kernel semaphore ({@code struct semaphore}): {@code down()} sleeps in
 * TASK_UNINTERRUPTIBLE until the count is positive, {@code up()} wakes one sleeper,
 * {@code down_trylock()} takes it only if free. Holders may sleep and, unlike spinlock holders,
 * may be preempted: a semaphore is no preempt-off region.
 *
 * <p>Models include/asm-i386/semaphore.h and arch/i386/kernel/semaphore.c {@code __down} /
 * {@code __up} (2.4.17): sleepers wait exclusively ({@code add_wait_queue_exclusive}), so an
 * {@code up()} wakes one of them, which retries.
 *
 * <pre>{@code
 * Semaphore consoleSem = new Semaphore("console_sem", 1);        // DECLARE_MUTEX
 * KernelPath.path("drivers/char/console.c", "con_write").down(consoleSem) ... .up(consoleSem)
 * }</pre>
 *
 * <p>One semaphore belongs to one kernel: its count is run-time state.
 */
@Models(file = "include/asm-i386/semaphore.h", function = "struct semaphore", version = "2.4.17")
public final class Semaphore {

  private final String name;
  private final WaitQueue wait;
  private int count; // > 0: free slots; sleepers wait on `wait` while it is 0

  /** A semaphore with {@code initial} free slots ({@code sema_init}); 1 is a mutex. */
  @Models(file = "include/asm-i386/semaphore.h", function = "sema_init", version = "2.4.17")
  public Semaphore(String name, int initial) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a semaphore needs a name, got " + (name == null ? "null" : "\"" + name + "\""));
    }
    if (initial < 0) {
      throw new IllegalArgumentException("semaphore " + name + ": negative count " + initial);
    }
    this.name = name;
    this.wait = new WaitQueue(name + ".wait");
    this.count = initial;
  }

  /** The semaphore's name. */
  public String name() {
    return name;
  }

  /** Free slots now. */
  public int count() {
    return count;
  }

  /** {@code down_trylock()}: takes a slot if one is free. */
  @Models(file = "include/asm-i386/semaphore.h", function = "down_trylock", version = "2.4.17")
  boolean tryDown() {
    if (count > 0) {
      count--;
      return true;
    }
    return false;
  }

  @Models(file = "include/asm-i386/semaphore.h", function = "up", version = "2.4.17")
  void up() {
    if (count == Integer.MAX_VALUE) {
      // the kernel's atomic_t would wrap to negative and block every down(): a program's bug
      throw new IllegalStateException("semaphore " + name + ": up() past " + Integer.MAX_VALUE + " free slots");
    }
    count++;
  }

  WaitQueue waitQueue() {
    return wait;
  }

  @Override
  public String toString() {
    return name;
  }
}
