package dev.kernellab.workloads;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.TaskSpec;
import dev.kernellab.kernel.spi.LatencyCause;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.paths.Kernel24Paths;
import dev.kernellab.paths.fs.FileIo;
import dev.kernellab.paths.fs.PageCache;
import dev.kernellab.paths.fs.VfsFile;
import dev.kernellab.paths.net.Net;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An NFS mount of the machine's own file system over loopback, as stress-kernel's NFS-COMPILE
 * ran its kernel builds: the client's {@code read}/{@code write} become RPCs of at most
 * rsize/wsize bytes sent over lo to the nfsd kernel threads, which do the file operation
 * through the page cache (fs/nfsd/vfs.c {@code nfsd_read}/{@code nfsd_write} calling the file's
 * read and write), and reply.
 *
 * <p>Models fs/nfs/read.c and write.c (the client's synchronous RPCs), net/sunrpc (the
 * transport: one UDP datagram each way over lo, through the catalog's loopback paths and NET_RX
 * softirq, where the client's udp_data_ready copies each reply into the request's pages), and
 * fs/nfsd (the server threads, which read a request in place, svc_udp_recvfrom), 2.4.17.
 * Simplifications said out loud: the client caches nothing (every read goes to the server: the
 * kernel tree's files are opened fresh by each compile, and 2.4's attribute cache revalidates
 * them), and replies are matched to callers by a queue of caller numbers instead of XIDs.
 *
 * <p>Both sides hold the big kernel lock as 2.4.17 does, so with the preempt patch neither can
 * be preempted there: an nfsd takes {@code lock_kernel()} once when it starts and keeps it for
 * its whole life (fs/nfsd/nfssvc.c {@code nfsd()}), so svc_recv's receive, svc_process, the file
 * read or write and the reply all run under it, and only its sleeps (schedule() drops the BKL)
 * let anyone else have it; the client takes it around each RPC (fs/nfs/read.c
 * {@code nfs_readpage_sync()}, and fs/nfs/file.c {@code nfs_commit_write()} around the write's
 * {@code nfs_updatepage()}), which holds it over the encoding and the transmit and drops it
 * while it sleeps for the reply. The analysis names them with {@link NfsdBkl} and
 * {@link NfsClientBkl}.
 *
 * <pre>{@code
 * LoopbackNfs nfs = new LoopbackNfs(paths, 1);
 * nfs.daemons().forEach(builder::task);
 * VfsFile src = nfs.create("src.c", 64 * 1024);
 * KernelPath read = nfs.call(0, false); // a read(2) of the mount, with a FileIo argument
 * }</pre>
 */
public final class LoopbackNfs {

  /** RPCNFSDCOUNT of Red Hat's nfs init script: 8 nfsd threads. */
  static final int NFSD_THREADS = 8;
  /** rsize and wsize of a 2.4 NFS-over-UDP mount: 8 KiB (the common mount option of 2002). */
  static final long RSIZE = 8_192;
  /** XDR encoding and the RPC header on either side: assumption, 15 us. */
  static final long RPC_MARSHAL_NS = 15_000;
  /**
   * Bytes of a datagram besides the data: the RPC header with AUTH_UNIX credentials and the
   * NFS arguments or attributes (a file handle of 32 bytes, offset and count, or a fattr of 68):
   * assumption, 128.
   */
  static final long RPC_HEADER_BYTES = 128;

  /** nfsd's main loop: svc_recv() a request, then serve it. */
  static final Site SVC_RECV = new Site("fs/nfsd/nfssvc.c", "nfsd", "svc_recv");
  /** A client read's loop of rsize RPCs. */
  static final Site READ_RPC = new Site("fs/nfs/file.c", "nfs_file_read", "rpc");
  /** A client write's loop of wsize RPCs. */
  static final Site WRITE_RPC = new Site("fs/nfs/file.c", "nfs_file_write", "rpc");

  private final Kernel24Paths paths;
  private final Net.Datagram requests;
  private final List<Net.Datagram> replies = new ArrayList<>();
  private final FileIo[] serverIo; // per caller: the chunk the nfsd serves next
  private final long[] end; // per caller: one past the last byte of the call
  private final boolean[] writing; // per caller: the call is a write
  private final int[] queue; // callers of requests sent and not yet taken by an nfsd
  private int queueHead;
  private int queueSize;
  private long rpcs;

  /** The server and {@code callers} client callers (one a task that calls at a time) of one kernel. */
  public LoopbackNfs(Kernel24Paths paths, int callers) {
    this.paths = paths;
    this.requests = paths.net().newDatagram("nfsd", false);
    this.queue = new int[callers];
    this.serverIo = new FileIo[callers];
    this.end = new long[callers];
    this.writing = new boolean[callers];
    for (int i = 0; i < callers; i++) {
      replies.add(paths.net().newDatagram("NFS client " + i, true));
      serverIo[i] = new FileIo();
    }
  }

  /** The nfsd kernel threads. */
  public List<TaskSpec> daemons() {
    List<TaskSpec> out = new ArrayList<>();
    for (int i = 0; i < NFSD_THREADS; i++) {
      out.add(TaskSpec.kernelThread("nfsd" + i, nfsd()));
    }
    return out;
  }

  /** One nfsd thread: take a request, do its file operation, send the reply. */
  @Models(file = "fs/nfsd/nfssvc.c", function = "nfsd", version = "2.4.17")
  @Models(file = "fs/nfsd/nfssvc.c", function = "nfsd_dispatch", version = "2.4.17")
  @Models(file = "fs/nfsd/vfs.c", function = "nfsd_read", version = "2.4.17")
  @Models(file = "fs/nfsd/vfs.c", function = "nfsd_write", version = "2.4.17")
  private KernelPath nfsd() {
    int[] serving = {-1}; // this thread's caller of the moment
    KernelPath.Builder serve = KernelPath.path("fs/nfsd/nfssvc.c", "nfsd_dispatch")
        .cause(new NfsdBkl("svc_process"));
    for (int i = 0; i < replies.size(); i++) {
      int caller = i;
      KernelPath op =
          KernelPath.path("fs/nfsd/vfs.c", "nfsd_read_or_write")
              .args(c -> serverIo[caller])
              .callIfElse("the call is a write", c -> writing[caller],
                  paths.filemap().sysWrite, paths.filemap().sysRead)
              .compute(RPC_MARSHAL_NS)
              .call(replies.get(caller).send(c -> replyBytes(caller)))
              .build();
      serve.callIf("caller " + i, c -> serving[0] == caller, op);
    }
    KernelPath dispatch = serve.build();
    // lock_kernel() before daemonize() and no unlock_kernel() until the thread exits: the whole
    // loop runs under the BKL, dropped only by the schedule() of svc_recv's sleep.
    return KernelPath.path("fs/nfsd/nfssvc.c", "nfsd")
        .cause(new NfsdBkl("svc_recv"))
        .lockKernel(paths.locks().kernelFlag)
        .loop(SVC_RECV, Long.MAX_VALUE, l -> l
            .call(requests.recv)
            .compute(RPC_MARSHAL_NS)
            .effect("svc_process(): the caller of the oldest request", c -> serving[0] = take())
            .call(dispatch))
        .build();
  }

  /** A call's datagram: the header, and the data of a write. */
  private long requestBytes(int caller) {
    return RPC_HEADER_BYTES + (writing[caller] ? serverIo[caller].bytes() : 0);
  }

  /** A reply's datagram: the header, and the data of a read. */
  private long replyBytes(int caller) {
    return RPC_HEADER_BYTES + (writing[caller] ? 0 : serverIo[caller].bytes());
  }

  private int take() {
    int caller = queue[queueHead];
    queueHead = (queueHead + 1) % queue.length;
    queueSize--;
    rpcs++;
    return caller;
  }

  /**
   * The client's system call for {@code caller}: the FileIo's bytes in rsize RPCs, each
   * queued, sent, served by an nfsd, and waited for.
   */
  @Models(file = "fs/nfs/file.c", function = "nfs_file_read", version = "2.4.17")
  @Models(file = "fs/nfs/file.c", function = "nfs_file_write", version = "2.4.17")
  @Models(file = "fs/nfs/read.c", function = "nfs_readpage_sync", version = "2.4.17")
  @Models(file = "fs/nfs/write.c", function = "nfs_writepage_sync", version = "2.4.17")
  public KernelPath call(int caller, boolean write) {
    String function = write ? "nfs_writepage_sync" : "nfs_readpage_sync";
    // lock_kernel() around NFS_PROTO(inode)->read() in nfs_readpage_sync, and around
    // nfs_updatepage() in nfs_commit_write for a write: held over the encoding and the
    // transmit, dropped by the schedule() of rpc_call_sync's wait for the reply.
    KernelPath one =
        KernelPath.path(write ? "fs/nfs/write.c" : "fs/nfs/read.c", function)
            .cause(new NfsClientBkl(function))
            .lockKernel(paths.locks().kernelFlag)
            .compute(RPC_MARSHAL_NS)
            .effect("rpc_call_sync(): queue the request", c -> {
              writing[caller] = write;
              queue[(queueHead + queueSize) % queue.length] = caller;
              queueSize++;
            })
            .call(requests.send(c -> requestBytes(caller)))
            .call(replies.get(caller).recv)
            .unlockKernel(paths.locks().kernelFlag)
            .build();
    return KernelPath.path("fs/nfs/file.c", write ? "nfs_file_write" : "nfs_file_read")
        .loop(write ? WRITE_RPC : READ_RPC, c -> {
          FileIo io = c.syscallArgs(FileIo.class);
          if (io == null || io.bytes() == 0) {
            return 0;
          }
          end[caller] = io.offset() + io.bytes();
          serverIo[caller].on(io.file(), io.offset(), Math.min(io.bytes(), RSIZE));
          return (io.bytes() + RSIZE - 1) / RSIZE;
        }, rpc -> rpc
            .call(one)
            .effect("the next rsize chunk", c -> {
              FileIo s = serverIo[caller];
              long from = s.offset() + s.bytes();
              s.on(s.file(), from, Math.max(0, Math.min(RSIZE, end[caller] - from)));
            }))
        .build();
  }

  /** A file on the exported file system. */
  public VfsFile create(String name, long bytes) {
    return paths.pageCache().create(name, (bytes + PageCache.PAGE_SIZE - 1) / PageCache.PAGE_SIZE);
  }

  /**
   * What the analysis names while an nfsd runs: it holds the BKL from {@code nfsd()}'s
   * {@code lock_kernel()} on, in {@code stage} ({@code svc_recv}: taking the request off the
   * socket; {@code svc_process}: the file operation and the reply).
   */
  public record NfsdBkl(String stage) implements LatencyCause {
    @Override
    public String describe(LatencyCause.Hold h) {
      return String.format(Locale.ROOT, "BKL held by %s in %s (%s %s, %.1f us)",
          h.task(), stage, h.path().file(), h.path().function(), h.ns() / 1000.0);
    }
  }

  /** What the analysis names while an NFS client encodes and sends an RPC under the BKL. */
  public record NfsClientBkl(String function) implements LatencyCause {
    @Override
    public String describe(LatencyCause.Hold h) {
      return String.format(Locale.ROOT, "BKL held by %s in %s: the RPC's encoding and transmit (%s %s, %.1f us)",
          h.task(), function, h.path().file(), h.path().function(), h.ns() / 1000.0);
    }
  }

  /** RPCs served. */
  public long rpcs() {
    return rpcs;
  }
}
