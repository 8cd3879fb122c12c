package dev.kernellab.spark;

import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.KernelPatchProvider;
import dev.kernellab.kernel.spi.Patching;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Patches that make a cell fail on purpose, registered for the tests only: {@code oops} is a
 * kernel bug (a task unlocks a lock it never took), {@code flaky} fails the first cell built with
 * it the way a dying executor would (a plain exception, not a kernel bug) and then works,
 * {@code doomed} fails every time. Spark's local mode runs tasks in this JVM, so the counts see
 * every attempt.
 */
public final class FailingPatches {

  static final AtomicInteger OOPS_BUILT = new AtomicInteger();
  static final AtomicInteger FLAKY_BUILT = new AtomicInteger();
  static final AtomicInteger DOOMED_BUILT = new AtomicInteger();

  private FailingPatches() {}

  /** A kernel bug in every cell: unlock of an unheld lock. */
  public static final class Oops implements KernelPatchProvider {
    @Override
    public String name() {
      return "oops";
    }

    @Override
    public String description() {
      return "test: a task that unlocks a lock it does not hold";
    }

    @Override
    public KernelPatch create() {
      OOPS_BUILT.incrementAndGet();
      return new KernelPatch() {
        @Override
        public String name() {
          return "oops";
        }

        @Override
        public void apply(Patching kernel) {
          KernelPath bad = KernelPath.path("test/oops.c", "bad_unlock").spinUnlock(SpinLock.spin("oops_lock")).build();
          kernel.task(TaskSpec.user("oops", KernelPath.userProgram("oops").syscall(bad).build()));
        }
      };
    }
  }

  /** The first build fails as an executor would; every later one is vanilla. */
  public static final class Flaky implements KernelPatchProvider {
    @Override
    public String name() {
      return "flaky";
    }

    @Override
    public String description() {
      return "test: the first cell built fails outside the kernel, then it works";
    }

    @Override
    public KernelPatch create() {
      if (FLAKY_BUILT.getAndIncrement() == 0) {
        throw new IllegalStateException("executor trouble (test)");
      }
      return nothing("flaky");
    }
  }

  /** Every build fails outside the kernel: the cell is lost once Spark's retries are used up. */
  public static final class Doomed implements KernelPatchProvider {
    @Override
    public String name() {
      return "doomed";
    }

    @Override
    public String description() {
      return "test: every cell built fails outside the kernel";
    }

    @Override
    public KernelPatch create() {
      DOOMED_BUILT.incrementAndGet();
      throw new IllegalStateException("executor keeps failing (test)");
    }
  }

  private static KernelPatch nothing(String name) {
    return new KernelPatch() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public void apply(Patching kernel) {}
    };
  }
}
