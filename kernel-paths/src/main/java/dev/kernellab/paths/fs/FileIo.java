package dev.kernellab.paths.fs;

/**
 * The arguments of a file system call: which file, where, how many bytes. A user program passes
 * one with {@code syscall(path, args)}; the catalog's file paths then loop over exactly those
 * pages and ask the {@link PageCache} about each, instead of drawing a length from
 * {@code PathParams}.
 *
 * <pre>{@code
 * FileIo io = new FileIo();                                  // one per task: no allocation per call
 * .syscall(catalog.filemap().sysRead, c -> io.on(file, offset, 65_536))
 * }</pre>
 *
 * <p>Also the per-call state the paths keep while they walk the pages (the kernel's local
 * variables): not for callers.
 */
public final class FileIo {

  private VfsFile file;
  private long offset;
  private long bytes;
  private long cursor; // next page the path looks at
  private long end; // one past the last page of the call
  private long lastPage = -1;
  private long below; // truncate: cached pages below the cut

  /** Points these arguments at {@code bytes} bytes of {@code file} from byte {@code offset}. */
  public FileIo on(VfsFile file, long offset, long bytes) {
    if (offset < 0 || bytes < 0) {
      throw new IllegalArgumentException("offset and bytes must be >= 0");
    }
    this.file = file;
    this.offset = offset;
    this.bytes = bytes;
    return this;
  }

  /** The file. */
  public VfsFile file() {
    return file;
  }

  /** First byte. */
  public long offset() {
    return offset;
  }

  /** Bytes asked for. */
  public long bytes() {
    return bytes;
  }

  /** For the catalog's paths: starts a walk of the call's pages; returns how many there are. */
  public long beginPages() {
    if (bytes == 0) {
      cursor = end = offset / PageCache.PAGE_SIZE;
      return 0;
    }
    cursor = offset / PageCache.PAGE_SIZE;
    end = (offset + bytes - 1) / PageCache.PAGE_SIZE + 1;
    return end - cursor;
  }

  /** For the catalog's paths: the next page of the walk. */
  public long nextPage() {
    lastPage = cursor < end ? cursor++ : end - 1;
    return lastPage;
  }

  /** For the catalog's paths: the page the walk looked at last. */
  public long lastPage() {
    return lastPage;
  }

  /** For the catalog's truncate: cached pages below the cut. */
  public void setBelow(long n) {
    below = n;
  }

  /** For the catalog's truncate: what {@link #setBelow} kept. */
  public long below() {
    return below;
  }

  @Override
  public String toString() {
    return file + " @" + offset + " +" + bytes;
  }
}
