package dev.kernellab.it;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The module arrows of the design, checked on the compiled classes of every module below the
 * lab-spark and benchmarks leaves: a module's classes use only its own packages and those of
 * the modules it points at, so nothing reaches up or sideways, and the packages have no cycle.
 *
 * <pre>
 * hw-model <- kernel-core <- {sched-o1, sched-goodness, preempt, voluntary, rt, kernel-paths}
 * kernel-paths <- {lowlatency, lockbreak, workloads};  workloads <- anatomy
 * testkit, lab: compose
 * </pre>
 */
class ArchitectureTests {

  private static JavaClasses classes;

  /** Each module's root package and the root packages it may use besides its own. */
  private static final Map<String, List<String>> ALLOWED = new TreeMap<>(Map.ofEntries(
      Map.entry("hw", List.of()),
      Map.entry("kernel", List.of("hw")),
      Map.entry("sched.o1", List.of("hw", "kernel")),
      Map.entry("sched.goodness", List.of("hw", "kernel")),
      Map.entry("preempt", List.of("hw", "kernel")),
      Map.entry("voluntary", List.of("hw", "kernel")),
      Map.entry("rt", List.of("hw", "kernel")),
      Map.entry("paths", List.of("hw", "kernel")),
      Map.entry("lowlat", List.of("hw", "kernel", "paths")),
      Map.entry("lockbreak", List.of("hw", "kernel", "paths")),
      Map.entry("workloads", List.of("hw", "kernel", "paths")),
      Map.entry("anatomy", List.of("hw", "kernel", "paths", "workloads")),
      Map.entry("testkit", List.of("hw", "kernel", "paths", "sched.o1", "sched.goodness", "preempt", "workloads")),
      Map.entry("lab", List.of("hw", "kernel", "paths", "sched.o1", "sched.goodness", "preempt", "lowlat",
          "lockbreak", "voluntary", "rt", "workloads", "anatomy"))));

  @BeforeAll
  static void importClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("-tests.jar")) // test-jars are test code too
        .importPackages("dev.kernellab");
  }

  static List<String> modules() {
    return new ArrayList<>(ALLOWED.keySet());
  }

  @ParameterizedTest
  @MethodSource("modules")
  void aModuleUsesOnlyTheModulesItPointsAt(String module) {
    List<String> forbidden = new ArrayList<>();
    for (String other : ALLOWED.keySet()) {
      if (!other.equals(module) && !ALLOWED.get(module).contains(other)) {
        forbidden.add("dev.kernellab." + other + "..");
      }
    }
    forbidden.add("dev.kernellab.spark..");
    forbidden.add("dev.kernellab.benchmarks..");
    forbidden.add("dev.kernellab.it..");
    noClasses().that().resideInAPackage("dev.kernellab." + module + "..")
        .should().dependOnClassesThat().resideInAnyPackage(forbidden.toArray(new String[0]))
        .because(module + " may use only " + ALLOWED.get(module) + " (DESIGN's module arrows)")
        .check(classes);
  }

  @Test
  void everyModuleOfTheDesignIsImported() {
    for (String module : ALLOWED.keySet()) {
      org.assertj.core.api.Assertions.assertThat(classes.stream()
              .anyMatch(c -> c.getPackageName().startsWith("dev.kernellab." + module)))
          .as("classes of %s imported", module).isTrue();
    }
  }

  /** The rules see real dependencies: kernel-core does use hw-model, and a rule saying not fails. */
  @Test
  void aRuleAgainstAnArrowThatExistsFails() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() ->
            noClasses().that().resideInAPackage("dev.kernellab.kernel..")
                .should().dependOnClassesThat().resideInAPackage("dev.kernellab.hw..").check(classes))
        .isInstanceOf(AssertionError.class);
  }

  /** The implementation depends on the SPI, never the other way. */
  @Test
  void theSpiKnowsNoImplementation() {
    noClasses().that().resideInAPackage("dev.kernellab.kernel.spi..")
        .should().dependOnClassesThat().resideInAPackage("dev.kernellab.kernel")
        .because("a plug-in sees kernel-core through its SPI's interfaces and views")
        .check(classes);
  }

  /**
   * The views a plug-in is shown, and the host it writes through, are the kernel's to implement:
   * a plug-in that made its own would hand the kernel something that is not its state.
   */
  @ParameterizedTest
  @MethodSource("kernelImplemented")
  void onlyTheKernelImplementsWhatAPluginIsShown(Class<?> view) {
    com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes()
        .that().implement(view)
        .should().resideInAPackage("dev.kernellab.kernel")
        .because("a plug-in is shown " + view.getSimpleName() + "s; it does not make them")
        .check(classes);
  }

  static List<Class<?>> kernelImplemented() {
    return List.of(dev.kernellab.kernel.spi.TaskView.class, dev.kernellab.kernel.spi.MmView.class,
        dev.kernellab.kernel.spi.CpuView.class, dev.kernellab.kernel.spi.SchedulerHost.class,
        dev.kernellab.kernel.spi.PathView.class, dev.kernellab.kernel.spi.LockView.class,
        dev.kernellab.kernel.spi.KernelView.class, dev.kernellab.kernel.spi.TraceInterest.class,
        dev.kernellab.kernel.spi.Patching.class, dev.kernellab.kernel.spi.Operation.Step.class,
        dev.kernellab.kernel.spi.TaskSpecView.class);
  }

  /**
   * A scheduler is a plug-in of the SPI alone: it sees tasks as views and writes through its
   * host. So is rt, which needs no code of the path language, only a switch of its Patching.
   */
  @ParameterizedTest
  @MethodSource("spiAlone")
  void aPluginOfTheSpiAloneUsesNothingElse(String module) {
    noClasses().that().resideInAPackage("dev.kernellab." + module + "..")
        .should().dependOnClassesThat().resideInAPackage("dev.kernellab.kernel")
        .because(module + " implements dev.kernellab.kernel.spi's interfaces only")
        .check(classes);
  }

  static List<String> spiAlone() {
    return List.of("sched.o1", "sched.goodness", "rt");
  }

  @Test
  void theModulesHaveNoCycle() {
    slices().matching("dev.kernellab.(*)..").should().beFreeOfCycles().check(classes);
  }

  /**
   * Package by package too, but for kernel-paths: its catalog root ({@code Kernel24Paths},
   * {@code Locks}) composes the subsystem packages (mm, fs, net, drivers, kernel), which take the
   * root's locks and parameters, as the kernel's own subsystems share include/linux.
   */
  @Test
  void thePackagesOutsideTheCatalogHaveNoCycle() {
    slices().matching("dev.kernellab.(**)").should().beFreeOfCycles()
        .check(classes.that(com.tngtech.archunit.base.DescribedPredicate.not(
            com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage("dev.kernellab.paths.."))));
  }
}
