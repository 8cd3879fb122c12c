package dev.kernellab.hw.sim;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Independent, named random streams derived from one root seed.
 *
 * <p>Each consumer asks for its stream by a stable name ({@code "rtc.jitter"},
 * {@code "disk0.seek"}, {@code "task.17.compute"}). A stream's seed depends only on the root
 * seed and the name, never on how many other streams exist or in which order they were asked
 * for, so adding a consumer does not shift the draws of the others.
 *
 * <p>A name can be taken once: two consumers drawing from equal seeds would be silently
 * correlated, which is a modelling bug worth an exception.
 */
public final class RandomStreams {

  private final long rootSeed;
  // Sorted set: only membership matters, but nothing in the lab iterates an unordered set.
  private final TreeSet<String> issued = new TreeSet<>();
  // Indexed families ("task" + pid): only the last index, so that a run forking a process a
  // millisecond keeps no name per process (a set of names grew by 150 k per simulated hour).
  private final TreeMap<String, Long> lastIndex = new TreeMap<>();

  /** Creates the streams of one run. */
  public RandomStreams(long rootSeed) {
    this.rootSeed = rootSeed;
  }

  /** The root seed. */
  public long rootSeed() {
    return rootSeed;
  }

  /**
   * Returns a fresh generator for {@code name}.
   *
   * @throws IllegalArgumentException if the name was already taken in this run
   */
  public SplittableRandom stream(String name) {
    if (!issued.add(name)) {
      throw new IllegalArgumentException("random stream '" + name + "' was already taken");
    }
    return new SplittableRandom(seedFor(rootSeed, name));
  }

  /**
   * Returns a fresh generator for member {@code index} of the family {@code family}: the same
   * stream as {@code stream(family + "." + index)}, for families whose members are numbered in
   * increasing order (process ids), so that only the last number needs remembering.
   *
   * @throws IllegalArgumentException if {@code index} is not above every index taken before in
   *     this family, or the family is also used as a plain name
   */
  public SplittableRandom stream(String family, long index) {
    Long last = lastIndex.get(family);
    if (last != null && index <= last) {
      throw new IllegalArgumentException(
          "random stream '" + family + "." + index + "' taken out of order (last was " + last + ")");
    }
    String name = family + "." + index;
    if (issued.contains(name)) {
      throw new IllegalArgumentException("random stream '" + name + "' was already taken");
    }
    lastIndex.put(family, index);
    return new SplittableRandom(seedFor(rootSeed, name));
  }

  /** The seed a stream of this name gets under this root seed (stable across versions). */
  static long seedFor(long rootSeed, String name) {
    // FNV-1a over the UTF-8 bytes, then a SplitMix64 finaliser over (root ^ hash), so that
    // nearby seeds and similar names give unrelated streams.
    long h = 0xcbf29ce484222325L;
    for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return mix64(rootSeed ^ mix64(h));
  }

  private static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
