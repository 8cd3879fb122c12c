/**
 * The deterministic discrete-event engine beneath the simulated machine: {@code Simulation} (a
 * virtual clock in nanoseconds), re-armable {@code Event}s and their {@code EventHandler}s, the
 * pending-event set {@code EventQueue} (a heap ordered by time, then by arming order), and
 * {@code RandomStreams}, named random streams derived from one root seed. It models no kernel
 * code and reads no wall clock. One simulation runs on one thread, and the same seed gives the
 * same order of events.
 */
package dev.kernellab.hw.sim;
