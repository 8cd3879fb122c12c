package dev.kernellab.hw;

/**
 * One transfer asked of an {@link IdeDisk}: a run of sectors, read or write.
 *
 * <p>Owned and reused by the submitter (so that steady-state simulation allocates nothing);
 * the disk fills in the timestamps. A request may be submitted again once the disk has handed
 * it back through {@link IdeDisk#service()}.
 */
public class DiskRequest {

  private long lba;
  private int sectors;
  private boolean write;
  private boolean inFlight;
  long submittedNs;
  long startedNs;
  long completedNs;

  /** Sets what to transfer. */
  public DiskRequest set(long lba, int sectors, boolean write) {
    if (inFlight) {
      throw new IllegalStateException("request is still queued at the disk");
    }
    if (lba < 0 || sectors < 1) {
      throw new IllegalArgumentException(
          "disk request needs lba >= 0 and sectors >= 1, got lba " + lba + ", " + sectors);
    }
    this.lba = lba;
    this.sectors = sectors;
    this.write = write;
    return this;
  }

  /** First sector. */
  public long lba() {
    return lba;
  }

  /** Number of 512-byte sectors. */
  public int sectors() {
    return sectors;
  }

  /** True for a write. */
  public boolean write() {
    return write;
  }

  /** True between submission and acknowledgement. */
  public boolean inFlight() {
    return inFlight;
  }

  void markInFlight(boolean f) {
    inFlight = f;
  }

  /** When the request was submitted. */
  public long submittedNs() {
    return submittedNs;
  }

  /** When the drive started on it. */
  public long startedNs() {
    return startedNs;
  }

  /** When the drive finished it and raised its interrupt. */
  public long completedNs() {
    return completedNs;
  }

  /** Drive time: from start of service to completion. */
  public long serviceNs() {
    return completedNs - startedNs;
  }
}
