/**
 * The realtime-preempt patch set as a plug-in of kernel-core's SPI: {@link dev.kernellab.rt.RtPatch}
 * threads every device interrupt. Start reading with {@code RtPatch}, then kernel-core's
 * {@code IrqThreads}, the mechanism it turns on.
 */
package dev.kernellab.rt;
