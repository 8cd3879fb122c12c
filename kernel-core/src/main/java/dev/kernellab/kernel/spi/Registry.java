package dev.kernellab.kernel.spi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Things found by name: every provider of a service that the class path registers through
 * {@link ServiceLoader} ({@code META-INF/services/<service's binary name>}, one provider class
 * a line), listed in a fixed order, each name once. Schedulers, patches, workloads and the lab's
 * sweep engines are all found this way, so a plug-in jar is found as a built-in module is.
 *
 * <pre>{@code
 * public interface SchedulerProvider extends Registry.Provider {
 *   Registry<SchedulerProvider> REGISTRY = Registry.sorted("scheduler", SchedulerProvider.class);
 *   ...
 * }
 * SchedulerProvider o1 = SchedulerProvider.REGISTRY.get("o1");
 * SchedulerProvider.REGISTRY.get("cfs");   // IllegalArgumentException:
 *                                          //   unknown scheduler 'cfs'; known: goodness, o1
 * }</pre>
 *
 * <p>A registry holds no providers: each call loads them again through the calling thread's
 * context class loader, as {@link ServiceLoader#load(Class)} does, so a registry is immutable,
 * can be a constant, and sees what the class path of the moment registers.
 *
 * @param <P> the service: an interface each provider implements, which says the provider's name
 */
public final class Registry<P extends Registry.Provider> {

  /*
   * Implementation overview
   *
   * all() is the one place that loads: it collects every provider ServiceLoader finds, refuses
   * two of one name (naming both classes, since that is a packaging mistake to fix, not a user's
   * typo), then orders them. A sorted registry sorts by name. An ordered one lists the names of
   * its explicit order first, in that order, then any other provider (a plug-in) sorted by name;
   * a name of the order that no provider registers is refused too, so that an order cannot
   * silently lose an entry (a jar shaded without its service file, a provider renamed). Sorting
   * never depends on the order in which the class path lists jars, which differs between a
   * reactor build, a shaded jar and Spark's executors.
   */

  /** What a registry lists: a provider of the service, with the name users give it. */
  public interface Provider {

    /** The name users pass ({@code o1}, {@code preempt}, {@code stress}, {@code local}). */
    String name();
  }

  private final String kind; // singular, as in "unknown scheduler 'x'"
  private final Class<P> service;
  private final List<String> order; // empty: sorted by name

  private Registry(String kind, Class<P> service, List<String> order) {
    this.kind = Objects.requireNonNull(kind, "kind");
    this.service = Objects.requireNonNull(service, "service");
    this.order = List.copyOf(order);
    if (new HashSet<>(this.order).size() != this.order.size()) {
      throw new IllegalArgumentException(kind + " order names one " + kind + " twice: " + this.order);
    }
  }

  /**
   * The providers of {@code service}, listed by name.
   *
   * @param kind what one provider is called in messages, singular ({@code "scheduler"})
   */
  public static <P extends Provider> Registry<P> sorted(String kind, Class<P> service) {
    return new Registry<>(kind, service, List.of());
  }

  /**
   * The providers of {@code service}, listed in {@code order} and then, sorted by name, any that
   * {@code order} does not name. Every name of {@code order} must be registered.
   *
   * @param kind what one provider is called in messages, singular ({@code "workload"})
   * @throws IllegalArgumentException if {@code order} names one provider twice
   */
  public static <P extends Provider> Registry<P> ordered(String kind, Class<P> service, List<String> order) {
    return new Registry<>(kind, service, order);
  }

  /** What one provider is called in messages ({@code "scheduler"}). */
  public String kind() {
    return kind;
  }

  /**
   * Every provider the class path registers, in this registry's order.
   *
   * @throws IllegalStateException if two providers have one name, or a name of the explicit
   *     order has no provider
   */
  public List<P> all() {
    Map<String, P> byName = new LinkedHashMap<>();
    for (P p : ServiceLoader.load(service)) {
      String name = Objects.requireNonNull(p.name(), () -> p.getClass().getName() + ".name()");
      P other = byName.putIfAbsent(name, p);
      if (other != null) {
        throw new IllegalStateException(kind + " '" + name + "' registered twice, by "
            + other.getClass().getName() + " and " + p.getClass().getName());
      }
    }
    List<P> out = new ArrayList<>();
    for (String name : order) {
      P p = byName.remove(name);
      if (p == null) {
        throw new IllegalStateException(kind + " '" + name + "' is in the " + kind
            + " order but no provider registers it (META-INF/services/" + service.getName() + ")");
      }
      out.add(p);
    }
    List<P> rest = new ArrayList<>(byName.values());
    rest.sort(Comparator.comparing(Provider::name));
    out.addAll(rest);
    return List.copyOf(out);
  }

  /** The names of {@link #all()}, in its order. */
  public List<String> names() {
    return all().stream().map(Provider::name).toList();
  }

  /** The provider registered as {@code name}, if there is one. */
  public Optional<P> find(String name) {
    return all().stream().filter(p -> p.name().equals(name)).findFirst();
  }

  /**
   * The provider registered as {@code name}.
   *
   * @throws IllegalArgumentException {@code unknown <kind> '<name>'; known: a, b, c} if there is
   *     none such
   */
  public P get(String name) {
    List<P> all = all();
    for (P p : all) {
      if (p.name().equals(name)) {
        return p;
      }
    }
    throw new IllegalArgumentException(unknown(name, all));
  }

  /** The message {@link #get} gives for {@code name}, which no provider of {@code all} has. */
  private String unknown(String name, List<P> all) {
    return "unknown " + kind + " '" + name + "'; known: "
        + (all.isEmpty() ? "none on the class path" : String.join(", ", all.stream().map(Provider::name).toList()));
  }

  @Override
  public String toString() {
    return kind + " registry (" + service.getName() + ", " + (order.isEmpty() ? "sorted" : "ordered " + order) + ")";
  }
}
