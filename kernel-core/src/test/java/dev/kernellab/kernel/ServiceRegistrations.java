package dev.kernellab.kernel;

import dev.kernellab.kernel.spi.Registry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * Runs a piece of a test with providers registered beside the class path's, as a plug-in jar's
 * {@code META-INF/services} file would register them: so a test can give a {@link Registry} a
 * duplicate name or a provider it lacks without changing what every other test of the module
 * sees. The registrations are written under a directory of the test's and seen through the
 * thread's context class loader, which is the one {@link java.util.ServiceLoader#load(Class)}
 * reads; the provider classes themselves come from the test's class path.
 *
 * <pre>{@code
 * List<String> names = ServiceRegistrations.in(tempDir)
 *     .register(KernelPatchProvider.class, AlphaProvider.class)
 *     .run(() -> KernelPatchProvider.REGISTRY.names());
 * }</pre>
 */
public final class ServiceRegistrations {

  private final Path dir;

  private ServiceRegistrations(Path dir) {
    this.dir = dir;
  }

  /** Registrations written under {@code dir} (a test's {@code @TempDir}). */
  public static ServiceRegistrations in(Path dir) {
    return new ServiceRegistrations(dir);
  }

  /** Adds {@code providers} to the registrations of {@code service}, in order. */
  public ServiceRegistrations register(Class<?> service, Class<?>... providers) {
    try {
      Path file = dir.resolve("META-INF/services/" + service.getName());
      Files.createDirectories(file.getParent());
      StringBuilder lines = new StringBuilder();
      for (Class<?> p : providers) {
        lines.append(p.getName()).append('\n');
      }
      Files.writeString(file, lines, StandardCharsets.UTF_8,
          java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What {@code action} returns with the registrations seen beside the class path's. */
  public <T> T run(Supplier<T> action) {
    Thread t = Thread.currentThread();
    ClassLoader before = t.getContextClassLoader();
    try (URLClassLoader extra = new URLClassLoader(new URL[] {dir.toUri().toURL()}, before)) {
      t.setContextClassLoader(extra);
      return action.get();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      t.setContextClassLoader(before);
    }
  }
}
