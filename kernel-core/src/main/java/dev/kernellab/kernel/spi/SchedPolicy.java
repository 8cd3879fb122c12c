package dev.kernellab.kernel.spi;

/** Scheduling policies of include/linux/sched.h (2.4.17): SCHED_OTHER, SCHED_FIFO, SCHED_RR. */
public enum SchedPolicy {
  /** SCHED_OTHER (0): time-sharing. */
  OTHER,
  /** SCHED_FIFO (1): real-time, runs until it blocks or yields. */
  FIFO,
  /** SCHED_RR (2): real-time, round-robin within a priority. */
  RR;

  /** True for SCHED_FIFO and SCHED_RR. */
  public boolean isRealTime() {
    return this != OTHER;
  }
}
