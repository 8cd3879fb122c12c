/**
 * Contract test suites for code that plugs into KernelLab. {@link
 * dev.kernellab.testkit.PatchContract} is what any kernel patch's tests extend: a patch module
 * adds this artifact in test scope and writes one class,
 *
 * <pre>{@code
 * class LockBreakContractTests extends PatchContract {
 *   protected KernelPatch patch() { return new LockBreakPatch(); }
 * }
 * }</pre>
 *
 * and its patch is then checked the way the lab uses patches (docs/extending.md).
 *
 * <p>Models no kernel code.
 *
 * <p>Start reading with {@code PatchContract}; {@code TraceDigest} is how it checks one seed,
 * one trace.
 */
package dev.kernellab.testkit;
