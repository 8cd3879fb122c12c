/**
 * Timing models of arch/i386/kernel code that the machine's firmware drives: the APM BIOS calls
 * of {@code kapmd} (apm.c, 2.4.17).
 */
package dev.kernellab.paths.arch;
