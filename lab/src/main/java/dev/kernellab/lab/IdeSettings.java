package dev.kernellab.lab;

import dev.kernellab.hw.DiskSpec;

/**
 * The IDE interface settings of a run's machine, as {@code hdparm} sets them: {@code -d}
 * (DMA), {@code -u} (unmask interrupts in the handler), {@code -m} (multcount). The defaults
 * are hw-model's {@link DiskSpec#ata7200rpm()}: a Red Hat 7.2/7.3 install on a PIIX4, DMA on,
 * unmaskirq off, multcount off (its Javadoc gives the sources).
 *
 * @param dma {@code hdparm -d1}
 * @param unmaskIrq {@code hdparm -u1}
 * @param multcount {@code hdparm -m}: sectors per PIO interrupt, 0 for one
 */
public record IdeSettings(boolean dma, boolean unmaskIrq, int multcount) {

  /** The default machine's. */
  public static final IdeSettings DEFAULT = of(DiskSpec.ata7200rpm());

  /** Validates the multcount by the drive's rule. */
  public IdeSettings {
    Experiment.option("--ide-multcount", () -> DiskSpec.checkMultcount(multcount));
  }

  /** The settings of {@code d}. */
  public static IdeSettings of(DiskSpec d) {
    return new IdeSettings(d.dma(), d.unmaskIrq(), d.multcount());
  }

  /** From the command line's 0/1 flags; a flag that is neither is refused, naming its option. */
  static IdeSettings fromFlags(int dma, int unmaskIrq, int multcount) {
    return new IdeSettings(flag("--ide-dma", dma), flag("--ide-unmaskirq", unmaskIrq), multcount);
  }

  private static boolean flag(String option, int v) {
    if (v != 0 && v != 1) {
      throw new IllegalArgumentException(option + ": must be 0 (off) or 1 (on), as hdparm takes it; got " + v);
    }
    return v == 1;
  }

  /** {@code d} with these settings. */
  public DiskSpec apply(DiskSpec d) {
    return d.withDma(dma).withUnmaskIrq(unmaskIrq).withMultcount(multcount);
  }

  /** The options that give these settings. */
  String options() {
    return "--ide-dma " + (dma ? 1 : 0) + " --ide-unmaskirq " + (unmaskIrq ? 1 : 0) + " --ide-multcount " + multcount;
  }

  /** In hdparm's words, for a report's heading: {@code using_dma 1, unmaskirq 0, multcount 0}. */
  String describe() {
    return "using_dma " + (dma ? 1 : 0) + ", unmaskirq " + (unmaskIrq ? 1 : 0) + ", multcount " + multcount;
  }
}
