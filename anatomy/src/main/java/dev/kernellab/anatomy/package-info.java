/**
 * The anatomy of a latency sample: {@link dev.kernellab.anatomy.LatencyAnatomy}, a tracer that
 * splits each sample of a workload's probe into typed {@link dev.kernellab.anatomy.Part}s and
 * {@link dev.kernellab.anatomy.Cause}s and keeps the worst few as
 * {@link dev.kernellab.anatomy.SampleAnatomy}s. The lab renders them; a library user reads them
 * as types.
 */
package dev.kernellab.anatomy;
