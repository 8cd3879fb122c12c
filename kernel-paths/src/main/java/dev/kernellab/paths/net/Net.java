package dev.kernellab.paths.net;

import static dev.kernellab.paths.Calibration.COPY_PAGE_NS;
import static dev.kernellab.paths.Calibration.MEMORY_MISS_NS;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.Count;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelCpu;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.WaitQueue;
import dev.kernellab.kernel.spi.LatencyCause;
import dev.kernellab.kernel.spi.Operation;
import dev.kernellab.kernel.spi.Site;
import dev.kernellab.kernel.spi.Softirq;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.mm.Slab;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Models the loopback network of the stress loads (2.4.17): the per-CPU backlog that
 * drivers/net/loopback.c {@code loopback_xmit()} fills through net/core/dev.c
 * {@code netif_rx()}, the NET_RX softirq {@code net_rx_action()} that drains it, TCP sockets
 * over lo (net/ipv4/tcp.c {@code tcp_sendmsg()}, {@code tcp_recvmsg()}, tcp_input.c's ACK
 * handling) and UDP sockets (net/ipv4/udp.c, the sunrpc transport of a loopback NFS mount), and
 * {@code tcp_get_info()}, the reader of /proc/net/tcp.
 *
 * <pre>{@code
 * Net net = catalog.net();
 * net.install(builder);                          // open_softirq(NET_RX_SOFTIRQ, net_rx_action)
 * Net.Connection c = net.newConnection("ttcp");
 * sender: .syscall(c.send)   receiver: .syscall(c.recv)
 * Net.Datagram d = net.newDatagram("nfsd", false);
 * client: .call(d.send(c -> 8_192))   server: .call(d.recv)
 * }</pre>
 */
@Models(file = "net/core/dev.c", function = "net_rx_action", version = "2.4.17")
@Models(file = "net/core/dev.c", function = "netif_rx", version = "2.4.17")
@Models(file = "drivers/net/loopback.c", function = "loopback_xmit", version = "2.4.17")
public final class Net {

  /*
   * Implementation overview
   *
   * Every packet a socket sends over lo goes through loopback_xmit to netif_rx, which appends
   * it to the sending CPU's backlog (softnet_data.input_pkt_queue) and raises NET_RX. The
   * softirq runs at the next local_bh_enable or interrupt exit: dev_queue_xmit's
   * spin_unlock_bh, right after the packet went, when the sender is in process context.
   * net_rx_action then takes packets off the head until the backlog is empty, 302 have gone
   * (bugdet starts at netdev_max_backlog = 300 and is tested with bugdet-- < 0 after each), or
   * jiffies has moved two past its start (jiffies - start_time > 1); then it raises NET_RX
   * again and do_softirq hands it to ksoftirqd. A packet it processes may queue more on the
   * same backlog, and they run in the same pass:
   *
   *   DATA of a connection   tcp_v4_rcv -> tcp_rcv_established: queued for the reader, who
   *                          is woken; every second full segment unacked, __tcp_ack_snd_check
   *                          sends an ACK at once (tcp_send_ack -> ... -> netif_rx)
   *   ACK                    tcp_ack frees the acked segments and wakes a writer waiting for
   *                          send-buffer space; tcp_data_snd_check -> tcp_write_xmit sends the
   *                          segments queued and not yet sent that the new window allows
   *   UDP datagram           udp_rcv -> sk->data_ready: sunrpc's client (udp_data_ready,
   *                          net/sunrpc/xprt.c) copies the reply into the request's pages here;
   *                          the server's svc_udp_data_ready only wakes an nfsd
   *
   * So a run's length is what the connections have in flight: for ttcp with 2.4.17's default
   * buffers, an ACK that reopens the window releases up to the 3 segments the send buffer holds
   * (tcp_fixup_sndbuf: 3 segments; the window, 87380 bytes of tcp_rmem less a quarter, holds 3
   * full 16 KiB segments), and their own ACKs follow. Bigger buffers (ttcp -b) make longer runs.
   *
   * A TCP connection is counts: segments queued unsent, sent and unacked, the window the last
   * ACK advertised, the congestion window, queued for the reader, received since the last ACK.
   * The writer owns its socket for the whole of tcp_sendmsg (lock_sock), so an ACK that arrives
   * meanwhile waits on the socket's backlog (sk_add_backlog) and is processed by release_sock,
   * with bottom halves off; the congestion window, 2 at first and one more per ACK (slow start:
   * lo never loses, so ssthresh is never set), holds back the rest of a big write until then.
   * The segments those ACKs release go onto the backlog at once, and the softirq at
   * release_sock's spin_unlock_bh drains them with every ACK and segment they bring on: the
   * whole write in one run if the buffers hold it. Not modelled: the reader's socket ownership
   * (its data is queued at once), the delayed-ACK timer (a pending ACK goes with the reader's
   * next read, as tcp_cleanup_rbuf sends it when the window reopens), netif_rx's drop past
   * netdev_max_backlog (no connection here has that much in flight: a ring past 4096 packets is
   * a bug and says so), and the brief local_irq_disable around each dequeue.
   *
   * Per-packet costs come from lmbench on a 790 MHz PIII (A. Marathe, "[BENCHMARK] 2.5.62
   * Lmbench performance", LKML 21 Feb 2003; docs/hardware-and-costs.md, lmbench costs): a round
   * trip costs 30-31 us over loopback TCP, 23-24 us over UDP and 8.1-8.6 us through a pipe. The
   * pipe's round trip is the same two switches, wake-ups and system calls without the network
   * stack, so one message's stack work is (30.5 - 8.4) / 2 = 11 us for TCP, (23.5 - 8.4) / 2 = 7.6 us for UDP. Half is taken for the
   * sending side (tcp_transmit_skb/ip_build_xmit to netif_rx) and half for the softirq (ip_rcv
   * to the socket): an assumption. Loopback skips the checksum (CHECKSUM_UNNECESSARY) and TCP
   * copies in the reader's context, so a TCP packet's softirq cost does not grow with its size;
   * sunrpc's client copy does, at the catalog's copy cost (Calibration.COPY_PAGE_NS). Cross-check:
   * the same run's bw_tcp of 52 MB/s is 315 us a 16 KiB segment, of which two copies at its
   * 123 MB/s bcopy take 266 us, leaving ~49 us for the stack, the ACK and the switches.
   *
   * One net_rx_action path per socket declares the cause, so a run is named by the socket whose
   * packets it processed: the backlog's head picks the path, which runs while the head is that
   * socket's (a run that mixes sockets is split at each change, under one budget).
   */

  /** net_rx_action's loop over the backlog: one iteration per packet; no patch bounds it. */
  public static final Site NET_RX_ACTION = new Site("net/core/dev.c", "net_rx_action", "net_rx_action");
  /** memcpy_toiovec's per-page copy in tcp_recvmsg. */
  public static final Site MEMCPY_TOIOVEC = new Site("net/core/iovec.c", "memcpy_toiovec", "memcpy_toiovec");
  /** tcp_sendmsg's loop over the segments of one write. */
  public static final Site TCP_SENDMSG = new Site("net/ipv4/tcp.c", "tcp_sendmsg", "tcp_sendmsg");
  /** tcp_write_xmit's loop over the segments the window lets go. */
  public static final Site TCP_WRITE_XMIT = new Site("net/ipv4/tcp_output.c", "tcp_write_xmit", "tcp_write_xmit");
  /** tcp_get_info's walk of the established hash (each bucket and its TIME_WAIT twin). */
  public static final Site TCP_EHASH = new Site("net/ipv4/tcp_ipv4.c", "tcp_get_info", "tcp_ehash");
  /** tcp_get_info's line per socket (get_tcp_sock's sprintf). */
  public static final Site GET_TCP_SOCK = new Site("net/ipv4/tcp_ipv4.c", "tcp_get_info", "get_tcp_sock");

  /** Pages of one loopback segment: lo's MTU of 16436 bytes less headers, an MSS of 16 KiB. */
  public static final long SEGMENT_PAGES = 4;
  /** A TCP packet's sending side, tcp_transmit_skb to netif_rx: half of 11 us (see above). */
  public static final long TCP_XMIT_NS = 5_500;
  /** A TCP packet's softirq side, ip_rcv and tcp_v4_rcv: half of 11 us (see above). */
  public static final long TCP_RX_NS = 5_500;
  /** A UDP datagram's sending side, ip_build_xmit to netif_rx: half of 7.6 us. */
  public static final long UDP_XMIT_NS = 3_800;
  /** A UDP datagram's softirq side, ip_rcv and udp_rcv to data_ready: half of 7.6 us. */
  public static final long UDP_RX_NS = 3_800;
  /** netdev_max_backlog of net/core/dev.c, 2.4.17. */
  public static final long NETDEV_MAX_BACKLOG = 300;
  /** Packets one net_rx_action run takes at most: bugdet-- &lt; 0 fails first on the 302nd. */
  public static final long RX_BUDGET = NETDEV_MAX_BACKLOG + 2;
  /** Segments the send buffer holds: tcp_fixup_sndbuf's 3 * (mss + headers), 2.4.17. */
  public static final long DEFAULT_SNDBUF_SEGMENTS = 3;
  /**
   * Full segments the receive window holds: tcp_rmem[1] = 87380, less a quarter
   * (tcp_win_from_space, tcp_adv_win_scale 2) = 65535 bytes, 3 segments of 16 KiB.
   */
  public static final long DEFAULT_WINDOW_SEGMENTS = 3;
  /** Segments received unacked that make tcp_v4_rcv ACK at once: more than one full segment. */
  public static final long ACK_EVERY = 2;
  /** The congestion window a connection starts with: tcp_v4_init_sock's snd_cwnd = 2 (2.4.17). */
  public static final long INITIAL_CWND = 2;

  /** One pair of ehash buckets visited: 8 bytes each, 4 to a line, 2 streams; assumption 100 ns. */
  public static final long EHASH_BUCKETS_NS = 2 * (MEMORY_MISS_NS / 4) + 12;
  /** One socket's line of /proc/net/tcp: get_tcp_sock's sprintf of ~150 bytes, assumption 3 us. */
  public static final long SOCK_LINE_NS = 3_000;
  /** Buckets of the established hash when no machine sized it: tcp_init for 256 MB. */
  public static final long DEFAULT_EHASH_SIZE = 8_192;

  private static final byte DATA = 0;
  private static final byte ACK = 1;
  private static final byte DGRAM = 2;
  private static final int RING = 4_096;

  private final Slab slab;
  private final List<Endpoint> endpoints = new ArrayList<>();
  private long ehashSize = DEFAULT_EHASH_SIZE;

  // per CPU: the backlog ring, and the net_rx_action run in progress
  private int[][] ringSock = new int[0][];
  private byte[][] ringKind = new byte[0][];
  private long[][] ringArg = new long[0][];
  private int[] ringHead = new int[0];
  private int[] ringSize = new int[0];
  private long[] runStart = new long[0]; // jiffies
  private long[] runPackets = new long[0];
  private long[] packetCost = new long[0];

  /** The NET_RX softirq handler. */
  public final KernelPath netRxAction;
  /** read(2) of /proc/net/tcp: tcp_get_info. */
  public final KernelPath tcpGetInfo;

  /** Builds the network of one kernel; the skbuffs it allocates and frees are {@code slab}'s. */
  public Net(Slab slab) {
    this.slab = slab;
    netRxAction =
        KernelPath.path("net/core/dev.c", "net_rx_action")
            .op(new Dispatch())
            .build();
    tcpGetInfo =
        KernelPath.path("net/ipv4/tcp_ipv4.c", "tcp_get_info")
            .cause(new TcpGetInfo())
            .localBhDisable()
            .loop(TCP_EHASH, c -> ehashSize, b -> b.compute(EHASH_BUCKETS_NS))
            .loop(GET_TCP_SOCK, c -> establishedSockets(), s -> s.compute(SOCK_LINE_NS))
            .localBhEnable()
            .build();
  }

  /** What the analysis names for a long run of net_rx_action: the packets of one socket. */
  public record NetRxAction(String socket) implements LatencyCause {
    @Override
    public String describe(LatencyCause.Hold h) {
      return on(h, h.iterations() > 0
          ? String.format(Locale.ROOT, "net_rx_action: %,d packets of %s", h.iterations(), socket)
          : "net_rx_action: the packets of " + socket);
    }
  }

  /** What the analysis names for a read of /proc/net/tcp: the hash walked with bottom halves off. */
  public record TcpGetInfo() implements LatencyCause {
    @Override
    public String describe(LatencyCause.Hold h) {
      if (GET_TCP_SOCK.equals(h.path().site())) {
        return on(h, String.format(Locale.ROOT, "tcp_get_info: %,d sockets printed, bottom halves off",
            h.iterations()));
      }
      return on(h, h.iterations() > 0
          ? String.format(Locale.ROOT, "tcp_get_info: %,d hash buckets walked, bottom halves off", h.iterations())
          : "tcp_get_info: the walk of the established hash, bottom halves off");
    }
  }

  /** {@code what}, then whose CPU time it was and how much: {@code (on ttcp-t[12], 3312.5 us)}. */
  private static String on(LatencyCause.Hold h, String what) {
    return String.format(Locale.ROOT, "%s (on %s, %.1f us)", what, h.task(), h.ns() / 1000.0);
  }

  /** {@code open_softirq(NET_RX_SOFTIRQ, net_rx_action, NULL)}; sizes the backlogs and the hash. */
  public void install(KernelBuilder b) {
    b.openSoftirq(Softirq.NET_RX, netRxAction);
    ensureCpus(b.machine().cpus());
    ehashSize = ehashSize(b.machine().memoryBytes());
  }

  /**
   * tcp_ehash_size as net/ipv4/tcp.c tcp_init (2.4.17) sizes it for a machine of
   * {@code memoryBytes}: goal = num_physpages &gt;&gt; 11 (&gt;&gt; 9 from 512 MB), the next power
   * of two of pages, 8-byte buckets, halved (the other half holds TIME_WAIT sockets).
   */
  @Models(file = "net/ipv4/tcp.c", function = "tcp_init", version = "2.4.17")
  public static long ehashSize(long memoryBytes) {
    long pages = memoryBytes / 4096;
    long goal = pages >= 128 * 1024 ? pages >> 9 : pages >> 11;
    int order = 0;
    while ((1L << order) < goal) {
      order++;
    }
    long size = ((1L << order) * 4096 / 8) >> 1;
    return Long.highestOneBit(Math.max(1, size));
  }

  private void ensureCpus(int cpus) {
    if (ringHead.length >= cpus) {
      return;
    }
    ringSock = new int[cpus][RING];
    ringKind = new byte[cpus][RING];
    ringArg = new long[cpus][RING];
    ringHead = new int[cpus];
    ringSize = new int[cpus];
    runStart = new long[cpus];
    runPackets = new long[cpus];
    packetCost = new long[cpus];
  }

  /** {@code netif_rx(skb)} on the CPU running {@code c}: append to its backlog, raise NET_RX. */
  private void netifRx(KernelCpu c, int socket, byte kind, long arg) {
    ensureCpus(c.kernel().cpuCount());
    int cpu = c.id();
    if (ringSize[cpu] == RING) {
      throw new IllegalStateException("cpu" + cpu + "'s backlog holds " + RING + " packets: a socket"
          + " with that much in flight needs netif_rx's drop, which this model leaves out");
    }
    int at = (ringHead[cpu] + ringSize[cpu]) % RING;
    ringSock[cpu][at] = socket;
    ringKind[cpu][at] = kind;
    ringArg[cpu][at] = arg;
    ringSize[cpu]++;
    c.raiseSoftirq(Softirq.NET_RX);
  }

  /** True while this run of net_rx_action may take another packet. */
  private boolean more(KernelCpu c) {
    return more(c.id(), c.kernel().jiffies());
  }

  private boolean more(int cpu, long jiffies) {
    return cpu < ringSize.length && ringSize[cpu] > 0 && runPackets[cpu] < RX_BUDGET
        && jiffies - runStart[cpu] <= 1;
  }

  /** Takes the head packet off {@code c}'s backlog and delivers it; its cost is left in packetCost. */
  private void receive(KernelCpu c) {
    int cpu = c.id();
    int at = ringHead[cpu];
    int socket = ringSock[cpu][at];
    byte kind = ringKind[cpu][at];
    long arg = ringArg[cpu][at];
    ringHead[cpu] = (at + 1) % RING;
    ringSize[cpu]--;
    runPackets[cpu]++;
    Endpoint e = endpoints.get(socket);
    packetCost[cpu] = switch (kind) {
      case DATA -> ((Connection) e).dataArrives(c);
      case ACK -> ((Connection) e).ackArrives(c, arg & 0xffff_ffffL, arg >>> 32);
      default -> ((Datagram) e).arrives(c, arg);
    };
  }

  /**
   * net_rx_action itself: starts the run's budget and clock, hands the backlog to the path of the
   * socket at its head while it may go on, and raises NET_RX again if packets are left
   * (softnet_break).
   */
  private final class Dispatch implements Operation {
    @Override
    public int step(Operation.Step s, int phase) {
      int cpu = s.cpu().id();
      if (cpu >= ringSize.length) {
        return DONE;
      }
      long jiffies = s.kernel().jiffies();
      if (phase == 0) {
        runStart[cpu] = jiffies;
        runPackets[cpu] = 0;
      }
      if (more(cpu, jiffies)) {
        s.call(endpoints.get(ringSock[cpu][ringHead[cpu]]).rx);
        return 1;
      }
      if (ringSize[cpu] > 0) {
        s.raiseSoftirq(Softirq.NET_RX);
      }
      return DONE;
    }

    @Override
    public String describe() {
      return "for (;;) { skb = __skb_dequeue(&queue->input_pkt_queue); ... }";
    }
  }

  /** Established TCP sockets: both ends of every connection over lo. */
  private long establishedSockets() {
    long n = 0;
    for (Endpoint e : endpoints) {
      if (e instanceof Connection) {
        n += 2;
      }
    }
    return n;
  }

  /** A new TCP connection over lo with 2.4.17's default buffers. */
  public Connection newConnection(String name) {
    return newConnection(name, DEFAULT_SNDBUF_SEGMENTS, DEFAULT_WINDOW_SEGMENTS);
  }

  /**
   * A new TCP connection over lo whose send buffer holds {@code sndbufSegments} segments and
   * whose receive window {@code windowSegments} (ttcp -b: SO_SNDBUF and SO_RCVBUF).
   */
  public Connection newConnection(String name, long sndbufSegments, long windowSegments) {
    Connection c = new Connection(name, endpoints.size(), sndbufSegments, windowSegments);
    endpoints.add(c);
    return c;
  }

  /**
   * A new UDP socket on lo; {@code copiesInSoftirq} for a socket whose data_ready copies the
   * datagram out in the softirq (sunrpc's client, udp_data_ready), false for one that is read in
   * process context (an nfsd's svc_udp_recvfrom).
   */
  public Datagram newDatagram(String name, boolean copiesInSoftirq) {
    Datagram d = new Datagram(name, endpoints.size(), copiesInSoftirq);
    endpoints.add(d);
    return d;
  }

  /** A socket: where the backlog's packets go, with the net_rx_action path named after it. */
  public abstract class Endpoint {
    final int id;
    final String label;
    final KernelPath rx;

    Endpoint(int id, String label) {
      this.id = id;
      this.label = label;
      this.rx =
          KernelPath.path("net/core/dev.c", "net_rx_action")
              .cause(new NetRxAction(label))
              .loopWhile(NET_RX_ACTION, c -> RX_BUDGET,
                  c -> more(c) && ringSock[c.id()][ringHead[c.id()]] == id, p -> p
                  .effect("ip_rcv(), tcp_v4_rcv() or udp_rcv()", Net.this::receive)
                  .compute("the packet's protocol work", c -> packetCost[c.id()]))
              .build();
    }

    /** How the analysis names it: {@code ttcp's connection}. */
    public String label() {
      return label;
    }
  }

  /** One TCP connection over loopback: both sockets' state and their two system calls. */
  @Models(file = "net/ipv4/tcp.c", function = "tcp_sendmsg", version = "2.4.17")
  @Models(file = "net/ipv4/tcp.c", function = "tcp_recvmsg", version = "2.4.17")
  @Models(file = "net/ipv4/tcp_input.c", function = "tcp_ack", version = "2.4.17")
  @Models(file = "net/ipv4/tcp_input.c", function = "__tcp_ack_snd_check", version = "2.4.17")
  @Models(file = "net/ipv4/tcp_output.c", function = "tcp_write_xmit", version = "2.4.17")
  @Models(file = "net/core/iovec.c", function = "memcpy_toiovec", version = "2.4.17")
  public final class Connection extends Endpoint {
    private final long sndbuf;
    private final long window;
    private final WaitQueue sndWait;
    private final WaitQueue rcvWait;
    private long unsent; // on the write queue, not yet sent
    private long unacked; // sent, not yet acknowledged
    private long sndWnd; // segments past snd_una the last ACK allowed
    private long cwnd = INITIAL_CWND; // snd_cwnd
    private boolean owned; // the writer is in tcp_sendmsg (lock_sock)
    private long backlogAcks; // ACKs on the socket's backlog while owned
    private long backlogAcked; // segments they acknowledge
    private long backlogWnd; // the window the last of them advertised
    private long queued; // on the receive queue, unread
    private long rcvUnacked; // received since the last ACK sent
    private boolean windowWasFull; // the last read found the receive window full

    /** send(2) of one segment: waits for send-buffer space, copies, sends what the window allows. */
    public final KernelPath send;
    private final KernelPath xmit;
    private final KernelPath releaseSock;
    private final KernelPath waitForMemory;
    /** recv(2) of one segment: sleeps until one is queued, copies it, ACKs if one is due. */
    public final KernelPath recv;

    private Connection(String name, int id, long sndbuf, long window) {
      super(id, name + "'s connection");
      if (sndbuf < 1 || window < 1) {
        throw new IllegalArgumentException("a connection needs a send buffer and a window of at least"
            + " one segment, got " + sndbuf + " and " + window);
      }
      this.sndbuf = sndbuf;
      this.window = window;
      this.sndWnd = window;
      sndWait = new WaitQueue("sk_sleep(" + name + " sender)");
      rcvWait = new WaitQueue("sk_sleep(" + name + ")");
      xmit =
          KernelPath.path("net/ipv4/tcp_output.c", "tcp_write_xmit")
              .loopWhile(TCP_WRITE_XMIT, c -> Long.MAX_VALUE, c -> canSend(), p -> p
                  .localBhDisable()
                  .compute(TCP_XMIT_NS)
                  .effect("tcp_transmit_skb() ... loopback_xmit(): netif_rx()", this::transmit)
                  .localBhEnable())
              .build();
      releaseSock =
          KernelPath.path("net/core/sock.c", "release_sock")
              .localBhDisable()
              .compute("__release_sock(): tcp_v4_do_rcv() of the backlogged ACKs", this::processBacklog)
              .effect("sk->lock.users = 0", c -> owned = false)
              .localBhEnable()
              .build();
      waitForMemory =
          KernelPath.path("net/ipv4/tcp.c", "wait_for_tcp_memory")
              .call(releaseSock)
              .waitEvent(sndWait, () -> unsent + unacked < this.sndbuf)
              .effect("lock_sock()", c -> owned = true)
              .build();
      send = sendmsg(1);
      KernelPath ack =
          KernelPath.path("net/ipv4/tcp_output.c", "tcp_send_ack")
              .localBhDisable()
              .compute(TCP_XMIT_NS)
              .effect("tcp_transmit_skb() ... loopback_xmit(): netif_rx()", this::sendAck)
              .localBhEnable()
              .build();
      recv =
          KernelPath.path("net/ipv4/tcp.c", "tcp_recvmsg")
              .waitEvent(rcvWait, () -> queued > 0)
              .effect("skb_unlink()", c -> {
                windowWasFull = queued >= this.window;
                queued--;
              })
              .call(KernelPath.path("net/core/iovec.c", "memcpy_toiovec")
                  .loop(MEMCPY_TOIOVEC, SEGMENT_PAGES, p -> p.mightSleep().compute(COPY_PAGE_NS)) // copy_to_user
                  .build())
              .effect("kfree_skb()", c -> {
                slab.free(Slab.SKBUFF_HEAD_CACHE, 1);
                slab.free(Slab.SIZE_32768, 1);
              })
              .callIf("tcp_cleanup_rbuf(): an ACK is due or the window reopens",
                  c -> rcvUnacked > 0 || windowWasFull, ack)
              .build();
    }

    /**
     * sendmsg(2) of {@code segments} full segments in one call (ttcp -l): the socket owned
     * throughout, each segment copied and sent as the windows allow, the ACKs that came meanwhile
     * processed at release_sock.
     */
    public KernelPath sendmsg(long segments) {
      return KernelPath.path("net/ipv4/tcp.c", "tcp_sendmsg")
          .effect("lock_sock()", c -> owned = true)
          .loop(TCP_SENDMSG, segments, s -> s
              .callIf("no send-buffer space", c -> unsent + unacked >= sndbuf, waitForMemory)
              .compute(SEGMENT_PAGES * COPY_PAGE_NS)
              .effect("skb on the write queue", c -> {
                unsent++;
                slab.alloc(Slab.SKBUFF_HEAD_CACHE, 1);
                slab.alloc(Slab.SIZE_32768, 1);
              })
              .call(xmit))
          .call(releaseSock)
          .build();
    }

    private boolean canSend() {
      return unsent > 0 && unacked < Math.min(sndWnd, cwnd);
    }

    /** __release_sock: the backlogged ACKs, each a tcp_ack; returns the time they take. */
    private long processBacklog(KernelCpu c) {
      if (backlogAcks == 0) {
        return 0;
      }
      long acks = backlogAcks;
      backlogAcks = 0;
      long acked = backlogAcked;
      backlogAcked = 0;
      return acks * TCP_RX_NS + ack(c, acked, backlogWnd, acks);
    }

    private void transmit(KernelCpu c) {
      unsent--;
      unacked++;
      netifRx(c, id, DATA, 0);
    }

    private void sendAck(KernelCpu c) {
      long wnd = Math.max(0, window - queued);
      netifRx(c, id, ACK, rcvUnacked | (wnd << 32));
      rcvUnacked = 0;
      slab.alloc(Slab.SKBUFF_HEAD_CACHE, 1);
      slab.alloc(Slab.SIZE_512, 1);
    }

    /** tcp_rcv_established of a data segment: queue it, wake the reader, ACK every second one. */
    private long dataArrives(KernelCpu c) {
      queued++;
      rcvUnacked++;
      c.wakeUp(rcvWait);
      if (rcvUnacked >= ACK_EVERY) {
        sendAck(c);
        return TCP_RX_NS + TCP_XMIT_NS;
      }
      return TCP_RX_NS;
    }

    /** tcp_v4_rcv of an ACK: onto the socket's backlog if the writer owns it, else tcp_ack now. */
    private long ackArrives(KernelCpu c, long acked, long wnd) {
      slab.free(Slab.SKBUFF_HEAD_CACHE, 1);
      slab.free(Slab.SIZE_512, 1);
      if (owned) {
        backlogAcks++;
        backlogAcked += acked;
        backlogWnd = wnd;
        return TCP_RX_NS;
      }
      return TCP_RX_NS + ack(c, acked, wnd, 1);
    }

    /**
     * tcp_ack of {@code acks} ACKs: free what they acknowledge, open the congestion window by one
     * each (slow start), wake the writer, send what the windows allow (tcp_data_snd_check);
     * returns the time of the sends.
     */
    private long ack(KernelCpu c, long acked, long wnd, long acks) {
      unacked = Math.max(0, unacked - acked);
      sndWnd = wnd;
      cwnd = Math.min(cwnd + acks, Integer.MAX_VALUE);
      if (unsent + unacked < sndbuf) {
        c.wakeUp(sndWait);
      }
      long cost = 0;
      while (canSend()) {
        transmit(c);
        cost += TCP_XMIT_NS;
      }
      return cost;
    }

    /** Segments on the receive queue. */
    public long queued() {
      return queued;
    }
  }

  /** A UDP socket on lo: its datagrams' way through the softirq, and what reads it. */
  @Models(file = "net/ipv4/udp.c", function = "udp_sendmsg", version = "2.4.17")
  @Models(file = "net/ipv4/udp.c", function = "udp_rcv", version = "2.4.17")
  @Models(file = "net/sunrpc/xprt.c", function = "udp_data_ready", version = "2.4.17")
  @Models(file = "net/sunrpc/svcsock.c", function = "svc_udp_data_ready", version = "2.4.17")
  public final class Datagram extends Endpoint {
    private final boolean copiesInSoftirq;
    private final WaitQueue wait;
    private long queued;

    /** Waits for a datagram and takes it (the copy, if any, was the softirq's or is the reader's own). */
    public final KernelPath recv;

    private Datagram(String name, int id, boolean copiesInSoftirq) {
      super(id, name + "'s socket");
      this.copiesInSoftirq = copiesInSoftirq;
      wait = new WaitQueue("sk_sleep(" + name + ")");
      recv =
          KernelPath.path("net/ipv4/udp.c", "udp_recvmsg")
              .waitEvent(wait, () -> queued > 0)
              .effect("skb_recv_datagram()", c -> {
                queued--;
                if (!this.copiesInSoftirq) {
                  freeDatagram();
                }
              })
              .build();
    }

    /**
     * sendmsg of {@code bytes} (worked out when the call runs) to this socket: udp_getfrag's
     * copy and checksum of the payload, then ip_build_xmit to netif_rx with bottom halves off.
     */
    public KernelPath send(Count bytes) {
      return KernelPath.path("net/ipv4/udp.c", "udp_sendmsg")
          .compute("udp_getfrag(): copy and checksum the payload", c -> copyNs(bytes.at(c)))
          .localBhDisable()
          .compute(UDP_XMIT_NS)
          .effect("ip_build_xmit() ... loopback_xmit(): netif_rx()", c -> {
            long n = bytes.at(c);
            slab.alloc(Slab.SKBUFF_HEAD_CACHE, 1);
            slab.alloc(dataCache(n), 1);
            netifRx(c, id, DGRAM, n);
          })
          .localBhEnable()
          .build();
    }

    private long lastBytes;

    /** udp_rcv and data_ready: queue it and wake the reader; sunrpc's client copies it here. */
    private long arrives(KernelCpu c, long bytes) {
      queued++;
      lastBytes = bytes;
      c.wakeUp(wait);
      if (copiesInSoftirq) {
        freeDatagram();
        return UDP_RX_NS + copyNs(bytes);
      }
      return UDP_RX_NS;
    }

    private void freeDatagram() {
      slab.free(Slab.SKBUFF_HEAD_CACHE, 1);
      slab.free(dataCache(lastBytes), 1);
    }
  }

  private static long copyNs(long bytes) {
    return bytes * COPY_PAGE_NS / 4096;
  }

  private static int dataCache(long bytes) {
    return bytes > 512 ? Slab.SIZE_16384 : Slab.SIZE_512;
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries() {
    Net table = new Net(new Slab());
    Connection sample = table.newConnection("table");
    long exchange = TCP_RX_NS;
    // an ACK that reopens the window: the ACK, the 3 segments it releases (each sent from the
    // softirq), and the ACK the second of them triggers
    long chain = TCP_RX_NS + DEFAULT_SNDBUF_SEGMENTS * (TCP_XMIT_NS + TCP_RX_NS) + TCP_XMIT_NS + TCP_RX_NS;
    long buckets = DEFAULT_EHASH_SIZE * EHASH_BUCKETS_NS;
    return List.of(
        new CatalogEntry(
            "net_rx_action (NET_RX)", netRxAction, List.of("softirq (bh count)"),
            exchange, chain,
            "an ACK that reopens ttcp's window: the segments the send buffer held and their ACKs"
                + " (longer with bigger socket buffers); up to 302 packets or 2 jiffies",
            "11 us of stack per TCP packet, 7.6 us per UDP datagram, half each side (lmbench"
                + " lat_tcp/lat_udp less lat_pipe, 790 MHz PIII); netdev_max_backlog 300 (2.4.17)"),
        new CatalogEntry(
            "tcp_sendmsg (lo)", sample.send, List.of("bh off"),
            SEGMENT_PAGES * COPY_PAGE_NS + TCP_XMIT_NS, SEGMENT_PAGES * COPY_PAGE_NS + TCP_XMIT_NS,
            "none per segment; the softirq it raises runs at local_bh_enable",
            "copy 10 us/page (assumption); send side 5.5 us (lmbench, see net_rx_action)"),
        new CatalogEntry(
            "tcp_recvmsg (lo)", sample.recv, List.of(),
            SEGMENT_PAGES * COPY_PAGE_NS, SEGMENT_PAGES * COPY_PAGE_NS + TCP_XMIT_NS,
            "an ACK when one is due or the window reopens", "copy 10 us/page (assumption)"),
        new CatalogEntry(
            "tcp_get_info (/proc/net/tcp)", tcpGetInfo, List.of("bh off"),
            buckets, buckets + 64 * SOCK_LINE_NS,
            "the whole established hash walked with bottom halves off on every read, however few"
                + " sockets (8,192 bucket pairs at 256 MB); no load of the stress mix reads it",
            "100 ns a bucket pair (a line miss per 4 buckets, lmbench 175 ns; assumption), 3 us a"
                + " line (assumption); tcp_ehash_size from tcp_init"));
  }
}
