package dev.kernellab.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.kernel.ServiceRegistrations;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workloads are found as schedulers and patches are, through kernel-core's registry, but in the
 * explicit order {@link Workloads#ORDER}: a plug-in's workload is listed after the six, a second
 * provider of a name is refused, and so is a provider whose workload carries another name.
 */
class WorkloadRegistryTests {

  @TempDir Path services;

  /** A plug-in's workload: realfeel alone, under a name of its own. */
  public static final class Quiet implements WorkloadProvider {
    @Override
    public String name() {
      return "quiet";
    }

    @Override
    public String description() {
      return "a test's workload";
    }

    @Override
    public Workload create() {
      return new Workload() {
        @Override
        public String name() {
          return "quiet";
        }

        @Override
        public String description() {
          return "a test's workload";
        }

        @Override
        public Run install(dev.kernellab.paths.Kernel24Paths paths, dev.kernellab.kernel.KernelBuilder b) {
          return StandardWorkloads.idle().install(paths, b);
        }
      };
    }
  }

  /** A second provider of {@code idle}. */
  public static final class AnotherIdle implements WorkloadProvider {
    @Override
    public String name() {
      return "idle";
    }

    @Override
    public String description() {
      return "a test's duplicate";
    }

    @Override
    public Workload create() {
      return StandardWorkloads.idle();
    }
  }

  /** Registered as {@code busy}, but creates {@code idle}. */
  public static final class Mislabelled implements WorkloadProvider {
    @Override
    public String name() {
      return "busy";
    }

    @Override
    public String description() {
      return "a test's mistake";
    }

    @Override
    public Workload create() {
      return StandardWorkloads.idle();
    }
  }

  @Test
  void aPlugInWorkloadIsListedAfterTheSixInTheirOrder() {
    ServiceRegistrations plugIn = ServiceRegistrations.in(services).register(WorkloadProvider.class, Quiet.class);
    assertThat(plugIn.run(Workloads::names))
        .containsExactly("stress", "latencytest", "dbench", "kbuild", "idle", "cyclictest", "quiet");
    assertThat(plugIn.run(Workloads::descriptions)).last().isEqualTo("quiet: a test's workload");
    assertThat(plugIn.run(() -> Workloads.create("quiet").name())).isEqualTo("quiet");
  }

  @Test
  void anUnknownWorkloadNamesTheKnownOnesInOrder() {
    assertThatIllegalArgumentException().isThrownBy(() -> Workloads.create("quiet"))
        .withMessage("unknown workload 'quiet'; known: stress, latencytest, dbench, kbuild, idle, cyclictest");
    assertThat(Workloads.REGISTRY.find("quiet")).isEmpty();
  }

  @Test
  void twoWorkloadsOfOneNameAreRefused() {
    ServiceRegistrations twice = ServiceRegistrations.in(services).register(WorkloadProvider.class, AnotherIdle.class);
    assertThatIllegalStateException().isThrownBy(() -> twice.run(Workloads::names))
        .withMessage("workload 'idle' registered twice, by " + StandardWorkloads.IdleProvider.class.getName() + " and "
            + AnotherIdle.class.getName());
  }

  @Test
  void aProviderMustCreateTheWorkloadItIsRegisteredAs() {
    ServiceRegistrations wrong = ServiceRegistrations.in(services).register(WorkloadProvider.class, Mislabelled.class);
    assertThatIllegalStateException().isThrownBy(() -> wrong.run(() -> Workloads.create("busy")))
        .withMessage("workload provider " + Mislabelled.class.getName() + " is registered as 'busy' but creates"
            + " workload 'idle'");
  }
}
