package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.kernellab.kernel.spi.Registry;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one mechanism by which schedulers, patches, workloads and sweep engines are found by name:
 * a fixed listing order whatever the class path's order, an explicit order checked against what
 * is registered, each name once, and an unknown name answered with what is known.
 */
class RegistryTests {

  /** A service of the tests: tools, found by name. */
  public interface Tool extends Registry.Provider {}

  /** A tool named by its constructor. */
  public abstract static class Named implements Tool {
    private final String name;

    Named(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }
  }

  /** hammer. */
  public static final class Hammer extends Named {
    public Hammer() {
      super("hammer");
    }
  }

  /** saw. */
  public static final class Saw extends Named {
    public Saw() {
      super("saw");
    }
  }

  /** awl, a plug-in to an ordered registry. */
  public static final class Awl extends Named {
    public Awl() {
      super("awl");
    }
  }

  /** chisel, another plug-in. */
  public static final class Chisel extends Named {
    public Chisel() {
      super("chisel");
    }
  }

  /** A second provider of the name saw. */
  public static final class OtherSaw extends Named {
    public OtherSaw() {
      super("saw");
    }
  }

  private static final Registry<Tool> SORTED = Registry.sorted("tool", Tool.class);

  @TempDir Path dir;

  @Test
  void aSortedRegistryListsByNameWhateverTheOrderOfRegistration() {
    List<Tool> all = ServiceRegistrations.in(dir).register(Tool.class, Saw.class, Hammer.class).run(SORTED::all);
    assertThat(all).extracting(Tool::name).containsExactly("hammer", "saw");
    assertThat(all.get(1)).isInstanceOf(Saw.class);
  }

  @Test
  void aNameFindsItsProviderAndAnUnknownNameSaysWhatIsKnown() {
    ServiceRegistrations tools = ServiceRegistrations.in(dir).register(Tool.class, Saw.class, Hammer.class);
    assertThat(tools.run(() -> SORTED.get("saw"))).isInstanceOf(Saw.class);
    assertThat(tools.run(() -> SORTED.find("saw"))).get().isInstanceOf(Saw.class);
    assertThat(tools.run(() -> SORTED.find("drill"))).isEmpty();
    assertThat(tools.run(SORTED::names)).containsExactly("hammer", "saw");
    assertThatIllegalArgumentException().isThrownBy(() -> tools.run(() -> SORTED.get("drill")))
        .withMessage("unknown tool 'drill'; known: hammer, saw");
    assertThatIllegalArgumentException().isThrownBy(() -> tools.run(() -> SORTED.get(null)))
        .withMessage("unknown tool 'null'; known: hammer, saw");
  }

  @Test
  void anEmptyRegistrySaysNoneIsOnTheClassPath() {
    assertThat(SORTED.all()).isEmpty();
    assertThatIllegalArgumentException().isThrownBy(() -> SORTED.get("saw"))
        .withMessage("unknown tool 'saw'; known: none on the class path");
  }

  @Test
  void twoProvidersOfOneNameAreRefusedNamingBoth() {
    ServiceRegistrations twice = ServiceRegistrations.in(dir).register(Tool.class, Saw.class, Hammer.class, OtherSaw.class);
    assertThatIllegalStateException().isThrownBy(() -> twice.run(SORTED::all))
        .withMessage("tool 'saw' registered twice, by " + Saw.class.getName() + " and " + OtherSaw.class.getName());
    assertThatIllegalStateException().isThrownBy(() -> twice.run(() -> SORTED.get("hammer")));
  }

  @Test
  void anOrderedRegistryListsItsOrderThenPlugInsByName() {
    Registry<Tool> ordered = Registry.ordered("tool", Tool.class, List.of("saw", "hammer"));
    List<String> names = ServiceRegistrations.in(dir)
        .register(Tool.class, Chisel.class, Hammer.class, Awl.class, Saw.class).run(ordered::names);
    assertThat(names).containsExactly("saw", "hammer", "awl", "chisel");
  }

  @Test
  void anOrderedRegistryRefusesANameOfItsOrderThatNoOneRegisters() {
    Registry<Tool> ordered = Registry.ordered("tool", Tool.class, List.of("saw", "drill"));
    ServiceRegistrations tools = ServiceRegistrations.in(dir).register(Tool.class, Saw.class);
    assertThatIllegalStateException().isThrownBy(() -> tools.run(ordered::all))
        .withMessage("tool 'drill' is in the tool order but no provider registers it (META-INF/services/"
            + Tool.class.getName() + ")");
  }

  @Test
  void anOrderNamesEachProviderOnce() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Registry.ordered("tool", Tool.class, List.of("saw", "hammer", "saw")))
        .withMessage("tool order names one tool twice: [saw, hammer, saw]");
  }

  @Test
  void aRegistrySaysWhatItFinds() {
    assertThat(SORTED.kind()).isEqualTo("tool");
    assertThat(SORTED).hasToString("tool registry (" + Tool.class.getName() + ", sorted)");
    assertThat(Registry.ordered("tool", Tool.class, List.of("saw")))
        .hasToString("tool registry (" + Tool.class.getName() + ", ordered [saw])");
  }
}
