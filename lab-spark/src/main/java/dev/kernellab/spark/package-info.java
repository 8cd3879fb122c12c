/**
 * {@code kernel-lab sweep --engine spark}: {@code SparkSweepEngine} runs a sweep's cells as one
 * Apache Spark job, one single-threaded simulation per task, found by the lab through
 * {@code java.util.ServiceLoader} as a {@code dev.kernellab.lab.SweepEngine}. The only package of
 * KernelLab that uses Spark; docs/spark.md is its user's guide.
 *
 * <p>Models no kernel code.
 *
 * <p>Start reading with {@code SparkSweepEngine}, then {@code RunCell} (what an executor runs).
 */
package dev.kernellab.spark;
