package dev.kernellab.workloads.rtapp;

/**
 * One event of an rt-app phase, as rt-app's {@code parse_task_event_data} types it
 * (src/rt-app_parse_config.c), with durations in microseconds as the file gives them. The
 * events rt-app has that this model refuses ({@code memrun}, {@code fork}, {@code sem_post},
 * {@code sem_wait}) have no case here: {@link RtAppReader} refuses them.
 */
public sealed interface RtAppEvent {

  /** The key as written ({@code run}, {@code run1}, {@code timer}). */
  String key();

  /**
   * {@code run}: a fixed amount of work calibrated to {@code us} of CPU; {@code runtime}: work
   * until {@code us} of wall time have passed since the event began.
   */
  record Run(String key, long us, boolean wallClock) implements RtAppEvent {}

  /** {@code sleep}: nanosleep for {@code us}. */
  record Sleep(String key, long us) implements RtAppEvent {}

  /**
   * {@code timer}: sleep until the timer's next expiry, {@code periodUs} after its previous
   * one. A {@code unique} timer is the thread's own; a named one is shared by every thread that
   * names it. {@code absolute} keeps a late expiry where it was (mode "absolute"); the default,
   * relative, moves a late timer's next expiry to now.
   */
  record Timer(String key, String ref, boolean unique, long periodUs, boolean absolute) implements RtAppEvent {}

  /** {@code mem}: memset of {@code bytes} bytes of the thread's buffer. */
  record Mem(String key, long bytes) implements RtAppEvent {}

  /** {@code iorun}: write {@code bytes} bytes to the global {@code io_device}. */
  record IoRun(String key, long bytes) implements RtAppEvent {}

  /** {@code lock}: pthread_mutex_lock. */
  record Lock(String key, String mutex) implements RtAppEvent {}

  /** {@code unlock}: pthread_mutex_unlock. */
  record Unlock(String key, String mutex) implements RtAppEvent {}

  /** {@code wait}: pthread_cond_wait (the thread must hold {@code mutex}). */
  record Wait(String key, String cond, String mutex) implements RtAppEvent {}

  /** {@code signal}: pthread_cond_signal. */
  record Signal(String key, String cond) implements RtAppEvent {}

  /** {@code broad}: pthread_cond_broadcast. */
  record Broad(String key, String cond) implements RtAppEvent {}

  /** {@code sync}: pthread_cond_signal then pthread_cond_wait on the same condition. */
  record Sync(String key, String cond, String mutex) implements RtAppEvent {}

  /** {@code barrier}: wait until every thread that uses the barrier has reached it. */
  record Barrier(String key, String name) implements RtAppEvent {}

  /** {@code suspend}: wait on the condition named after the thread's own task. */
  record Suspend(String key, String task) implements RtAppEvent {}

  /** {@code resume}: broadcast the condition named after {@code task}. */
  record Resume(String key, String task) implements RtAppEvent {}

  /** {@code yield}: sched_yield (rt-app ignores the value). */
  record Yield(String key) implements RtAppEvent {}
}
