package dev.kernellab.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.kernellab.hw.MachineSpec;
import dev.kernellab.kernel.Kernel;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.SpinLock;
import dev.kernellab.kernel.spi.KernelPatch;
import dev.kernellab.kernel.spi.KernelPatchProvider;
import dev.kernellab.kernel.spi.LockView;
import dev.kernellab.kernel.spi.PathView;
import dev.kernellab.kernel.spi.SchedulerProvider;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.Tracer;
import dev.kernellab.paths.CatalogPatch;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.workloads.Workload;
import dev.kernellab.workloads.WorkloadResult;
import dev.kernellab.workloads.Workloads;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What every kernel patch must do, checked the way the lab uses patches: a patch's tests
 * extend this class and say which patch ({@link #patch()}). The suite builds the 2.4.17 catalog
 * kernel ({@link Kernel24Paths}, its daemons, the {@code stress} load with realfeel) with the
 * patch and what it {@linkplain KernelPatch#requires() requires}, every debug check on, and
 * checks:
 *
 * <ul>
 *   <li>the registry: a patch registered by name creates patches of that name;
 *   <li>sites: every hook it installs is at a site the catalog's paths have, and it hooks at
 *       least one if {@link #hooksSites()}; a {@link CatalogPatch} describes exactly the sites it
 *       hooks, so that the site table ({@code kernel-lab list sites}) tells the truth;
 *   <li>composition: with {@code preempt} too (unless it conflicts with it) under both
 *       schedulers, on one CPU and two, the kernel runs with its invariants intact;
 *   <li>locks: no spinlock stays held for {@link #MAX_HOLD_NS} or more;
 *   <li>determinism: one seed, one trace; the workload's figures repeat exactly.
 * </ul>
 */
public abstract class PatchContract {

  /** A hold this long is a lock left held (the catalog's longest legitimate holds are tens of ms). */
  public static final long MAX_HOLD_NS = 1_000_000_000L;

  /** A fresh instance of the patch under test. */
  protected abstract KernelPatch patch();

  /** Whether the patch hooks sites of the catalog (a lock-break patch does; preempt does not). */
  protected boolean hooksSites() {
    return true;
  }

  /** Simulated time of each run; long enough for the stress load to reach every daemon. */
  protected long runNs() {
    return 5_000_000_000L;
  }

  @Test
  void aRegisteredPatchCreatesPatchesOfItsOwnName() {
    String name = patch().name();
    Optional<KernelPatchProvider> provider =
        KernelPatchProvider.all().stream().filter(p -> p.name().equals(name)).findFirst();
    provider.ifPresent(p -> assertThat(p.create().name()).as("provider %s", p.name()).isEqualTo(p.name()));
    // The name rule itself is kernel-core's, enforced where a builder takes a patch.
    assertThatCode(() -> new KernelBuilder(MachineSpec.uniprocessor(), 1).patch(patch()))
        .as("%s's name", name).doesNotThrowAnyException();
  }

  @Test
  void itHooksOnlySitesTheCatalogHas() {
    Composed x = compose("goodness", 1, 1, List.of(), null);
    List<Site> hooked = new ArrayList<>();
    for (Site s : x.paths.sites()) {
      if (x.kernel.hookAt(s).isPresent()) {
        hooked.add(s);
      }
    }
    if (hooksSites()) {
      assertThat(hooked).as("sites hooked by %s", patch().name()).isNotEmpty();
    }
    for (Site s : hooked) {
      KernelPath hook = x.kernel.hookAt(s).orElseThrow();
      assertThat(hook.isUser()).as("the hook at %s", s).isFalse();
    }
  }

  @Test
  void aCatalogPatchDescribesExactlyTheSitesItHooks() {
    if (!(patch() instanceof CatalogPatch c)) {
      return;
    }
    Composed with = compose("goodness", 1, 1, List.of(), null, true);
    Composed others = compose("goodness", 1, 1, List.of(), null, false); // what it requires, alone
    for (Site s : with.paths.sites()) {
      boolean hooked = with.kernel.hookAt(s).isPresent();
      boolean hookedByOthers = others.kernel.hookAt(s).isPresent();
      if (c.change(s).isPresent()) {
        assertThat(hooked).as("%s describes %s: it must hook it", c.name(), s.key()).isTrue();
      } else {
        assertThat(hooked && !hookedByOthers).as("%s hooks %s: it must describe it", c.name(), s.key()).isFalse();
      }
    }
  }

  @Test
  void itComposesWithPreemptUnderBothSchedulersOnOneAndTwoCpus() {
    KernelPatch p = patch();
    List<String> extra = new ArrayList<>();
    if (!p.name().equals("preempt") && !p.conflicts().contains("preempt") && !p.requires().contains("preempt")) {
      extra.add("preempt");
    }
    for (String scheduler : List.of("goodness", "o1")) {
      for (int cpus : List.of(1, 2)) {
        assertThatCode(() -> runChecked(compose(scheduler, cpus, 1, extra, null)))
            .as("%s with %s, %s, %d CPU(s)", p.name(), extra, scheduler, cpus)
            .doesNotThrowAnyException();
      }
    }
  }

  @Test
  void noSpinlockStaysHeld() {
    HoldWatch watch = new HoldWatch();
    Composed x = compose("goodness", 1, 1, List.of(), watch);
    runChecked(x);
    watch.check(x.kernel.now());
    for (SpinLock l : x.paths.locks().all()) {
      assertThat(l.maxHoldNs()).as("longest hold of %s", l.name()).isLessThan(MAX_HOLD_NS);
    }
  }

  @Test
  void oneSeedGivesOneTrace() {
    TraceDigest a = new TraceDigest();
    TraceDigest b = new TraceDigest();
    Composed x = compose("o1", 1, 7, List.of(), a);
    Composed y = compose("o1", 1, 7, List.of(), b);
    runChecked(x);
    runChecked(y);
    assertThat(b.events()).isEqualTo(a.events()).isPositive();
    assertThat(b.digest()).isEqualTo(a.digest());
    WorkloadResult rx = x.run.result(x.kernel);
    WorkloadResult ry = y.run.result(y.kernel);
    assertThat(ry.counters()).isEqualTo(rx.counters());
    assertThat(ry.probes().get(0).latency()).isEqualTo(rx.probes().get(0).latency());
  }

  /** The composed kernel, its catalog and its load. */
  record Composed(Kernel kernel, Kernel24Paths paths, Workload.Run run, long runNs) {}

  private Composed compose(String scheduler, int cpus, long seed, List<String> extra, Tracer tracer) {
    return compose(scheduler, cpus, seed, extra, tracer, true);
  }

  private Composed compose(String scheduler, int cpus, long seed, List<String> extra, Tracer tracer, boolean withPatch) {
    Kernel24Paths paths = Kernel24Paths.withDefaults();
    KernelBuilder b = new KernelBuilder(MachineSpec.uniprocessor().withCpus(cpus), seed)
        .scheduler(SchedulerProvider.create(scheduler));
    paths.install(b);
    paths.installDaemons(b);
    KernelPatch p = patch();
    List<String> others = new ArrayList<>(p.requires());
    extra.stream().filter(e -> !others.contains(e)).forEach(others::add);
    for (String o : others) {
      b.patch(o);
    }
    if (withPatch) {
      b.patch(p);
    }
    Workload.Run run = Workloads.create("stress").install(paths, b);
    if (tracer != null) {
      b.tracer(tracer);
    }
    Kernel k = b.build();
    run.start(k);
    return new Composed(k, paths, run, runNs());
  }

  /** Runs in one-second slices, checking the kernel's invariants and the load's progress. */
  private static void runChecked(Composed x) {
    long progress = -1;
    for (long t = 1_000_000_000L; t <= x.runNs; t += 1_000_000_000L) {
      x.kernel.run(t);
      x.kernel.checkInvariants();
      long now = x.run.progress();
      assertThat(now).as("the load progresses by %d s", t / 1_000_000_000L).isGreaterThan(progress);
      progress = now;
    }
  }

  /** Every lock hold in progress, by lock and CPU: none may last {@link #MAX_HOLD_NS}. */
  static final class HoldWatch implements Tracer {
    private final List<LockView> locks = new ArrayList<>();
    private final List<long[]> since = new ArrayList<>(); // per lock: acquire time per CPU, -1 free

    @Override
    public void lockAcquire(long now, int cpu, LockView lock, PathView path, long spunNs) {
      slot(lock)[cpu] = now;
    }

    @Override
    public void lockRelease(long now, int cpu, LockView lock, PathView path, long heldNs) {
      slot(lock)[cpu] = -1;
    }

    private long[] slot(LockView lock) {
      int i = locks.indexOf(lock);
      if (i < 0) {
        locks.add(lock);
        long[] s = new long[MachineSpec.MAX_CPUS];
        java.util.Arrays.fill(s, -1);
        since.add(s);
        return s;
      }
      return since.get(i);
    }

    void check(long now) {
      for (int i = 0; i < locks.size(); i++) {
        long[] s = since.get(i);
        for (int cpu = 0; cpu < s.length; cpu++) {
          if (s[cpu] >= 0) {
            assertThat(now - s[cpu]).as("%s held on cpu%d since %d ns", locks.get(i).name(), cpu, s[cpu])
                .isLessThan(MAX_HOLD_NS);
          }
        }
      }
    }
  }
}
