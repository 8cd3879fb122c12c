/**
 * The deterministic discrete-event engine beneath the simulated machine: {@code Simulation} (a
 * virtual clock in nanoseconds), re-armable {@code Event}s and their {@code EventHandler}s, the
 * pending-event set {@code EventQueue} (a heap ordered by time, then by arming order), and
 * {@code RandomStreams}, named random streams derived from one root seed. One simulation runs on
 * one thread, reads no wall clock, and the same seed gives the same order of events.
 *
 * <p>Models no kernel code.
 *
 * <p>Start reading with {@code Simulation}, then {@code EventQueue} (its implementation overview
 * draws the heap).
 */
package dev.kernellab.hw.sim;
