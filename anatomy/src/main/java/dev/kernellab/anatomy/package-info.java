/**
 * The anatomy of a latency sample: {@link dev.kernellab.anatomy.LatencyAnatomy}, a tracer that
 * splits each sample of a workload's probe into typed {@link dev.kernellab.anatomy.Part}s and
 * {@link dev.kernellab.anatomy.Cause}s and keeps the worst few as
 * {@link dev.kernellab.anatomy.SampleAnatomy}s. The lab renders them; a library user reads them
 * as types.
 *
 * <p>Models no kernel function; the split follows what ftrace's wakeup_rt tracer and rtla
 * timerlat's auto-analysis report on a real kernel.
 *
 * <p>Start reading with {@code LatencyAnatomy}, then {@code Part} and {@code Cause} (what a
 * sample is made of) and {@code WaitLedger} (who held the CPU while the woken task waited).
 */
package dev.kernellab.anatomy;
