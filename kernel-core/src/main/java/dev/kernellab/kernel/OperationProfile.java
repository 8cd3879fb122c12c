package dev.kernellab.kernel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * How many operations the interpreter ran, by kind of operation and by path, since
 * {@link Kernel#profileOperations()} switched counting on: where a simulated second's work
 * goes. Counting is off by default, since it costs a branch and an array increment per
 * operation, and a map look-up per operation for the paths.
 *
 * @param byKind each kind of operation ({@code FlowOps.Compute}, {@code LockOps.SpinLock}...),
 *     most operations first
 * @param byPath each path ({@link KernelPath#toString()}: {@code file:function}, or a loop's
 *     site), most operations first
 * @param fastForwardedByPath the operations fast-forward ran instead of the interpreter, by the
 *     path they belong to (a loop body, a function it calls, a hook), most first; in neither
 *     list above
 */
public record OperationProfile(List<Count> byKind, List<Count> byPath, List<Count> fastForwardedByPath) {

  /**
   * One row.
   *
   * @param name how it reads: {@code FlowOps.Compute}, {@code mm/vmscan.c:swap_out_pmd}
   * @param className for a kind, the binary name of the class whose {@code exec} runs it (for a
   *     sampling profiler to attribute a stack frame to the kind); for a path, empty
   * @param ops operations run
   */
  public record Count(String name, String className, long ops) {}

  public OperationProfile {
    byKind = List.copyOf(byKind);
    byPath = List.copyOf(byPath);
    fastForwardedByPath = List.copyOf(fastForwardedByPath);
  }

  /** The kind of every operation class a kernel has built, with its binary class name: for a profiler. */
  public static List<Count> kinds() {
    List<Count> out = new ArrayList<>();
    for (Class<?> c : Counter.kindClasses()) {
      out.add(new Count(kindName(c), c.getName(), 0));
    }
    return out;
  }

  static String kindName(Class<?> c) {
    String n = c.getName();
    return n.substring(n.lastIndexOf('.') + 1).replace('$', '.');
  }

  private static final Comparator<Count> MOST_FIRST =
      Comparator.comparingLong(Count::ops).reversed().thenComparing(Count::name);

  /** The interpreter's counters; one per kernel, present only while profiling. */
  static final class Counter {
    private static final List<Class<?>> KIND_CLASSES = new ArrayList<>();
    private static final ClassValue<Integer> KIND =
        new ClassValue<>() {
          @Override
          protected Integer computeValue(Class<?> type) {
            synchronized (KIND_CLASSES) {
              KIND_CLASSES.add(type);
              return KIND_CLASSES.size() - 1;
            }
          }
        };

    /** The kind number of an operation class, given once, when an operation is built. */
    static int kindOf(Class<?> opClass) {
      return KIND.get(opClass);
    }

    static List<Class<?>> kindClasses() {
      synchronized (KIND_CLASSES) {
        return List.copyOf(KIND_CLASSES);
      }
    }

    private long[] byKind = new long[64];
    // by identity: paths are values built once; equal-looking paths of two kernels stay apart
    private final Map<KernelPath, long[]> byPath = new IdentityHashMap<>();
    private final Map<KernelPath, long[]> fastForwarded = new IdentityHashMap<>();

    void count(Op op, KernelPath path) {
      int kind = op.kind;
      if (kind >= byKind.length) {
        byKind = java.util.Arrays.copyOf(byKind, Math.max(kind + 1, byKind.length * 2));
      }
      byKind[kind]++;
      countPath(byPath, path);
    }

    /** {@code n} operations of {@code path} run by {@link FastForward}. */
    void countFastForwarded(KernelPath path, long n) {
      countPath(fastForwarded, path, n);
    }

    private static void countPath(Map<KernelPath, long[]> counts, KernelPath path) {
      countPath(counts, path, 1);
    }

    private static void countPath(Map<KernelPath, long[]> counts, KernelPath path, long n) {
      long[] p = counts.get(path);
      if (p == null) {
        p = new long[1];
        counts.put(path, p);
      }
      p[0] += n;
    }

    OperationProfile snapshot() {
      List<Class<?>> classes = kindClasses();
      List<Count> kinds = new ArrayList<>();
      for (int i = 0; i < Math.min(classes.size(), byKind.length); i++) {
        if (byKind[i] > 0) {
          kinds.add(new Count(kindName(classes.get(i)), classes.get(i).getName(), byKind[i]));
        }
      }
      kinds.sort(MOST_FIRST);
      return new OperationProfile(kinds, byName(byPath), byName(fastForwarded));
    }

    /** Paths of the same name (one function built for two callers) add up under that name. */
    private static List<Count> byName(Map<KernelPath, long[]> counts) {
      Map<String, long[]> named = new java.util.TreeMap<>();
      for (Map.Entry<KernelPath, long[]> e : counts.entrySet()) {
        named.computeIfAbsent(e.getKey().toString(), n -> new long[1])[0] += e.getValue()[0];
      }
      List<Count> paths = new ArrayList<>();
      named.forEach((n, v) -> paths.add(new Count(n, "", v[0])));
      paths.sort(MOST_FIRST);
      return paths;
    }
  }
}
