/**
 * Timing models of arch/i386/kernel code that the machine's firmware drives: the APM BIOS calls
 * of {@code kapmd}.
 *
 * <p>Models arch/i386/kernel/apm.c of 2.4.17 ({@code apm_mainloop()}, {@code apm_bios_call()}).
 *
 * <p>Start reading with {@code Apm}, the package's one class.
 */
package dev.kernellab.paths.arch;
