package dev.kernellab.hw.sim;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
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
