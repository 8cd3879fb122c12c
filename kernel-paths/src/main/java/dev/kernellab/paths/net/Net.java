package dev.kernellab.paths.net;

import static dev.kernellab.paths.Calibration.COPY_PAGE_NS;

import dev.kernellab.hw.Models;
import dev.kernellab.kernel.Distribution;
import dev.kernellab.kernel.KernelBuilder;
import dev.kernellab.kernel.KernelPath;
import dev.kernellab.kernel.Site;
import dev.kernellab.kernel.Softirq;
import dev.kernellab.kernel.WaitQueue;
import dev.kernellab.paths.CatalogEntry;
import dev.kernellab.paths.Quantiles;
import java.util.ArrayList;
import java.util.List;

/**
 * Models the TCP loopback path of the stress loads (ttcp over lo): net/ipv4/tcp.c
 * {@code tcp_sendmsg()} and {@code tcp_recvmsg()} with net/core/iovec.c
 * {@code memcpy_toiovec()}, drivers/net/loopback.c {@code loopback_xmit()} /
 * net/core/dev.c {@code netif_rx()}, and the receive softirq net/core/dev.c
 * {@code net_rx_action()} (2.4.17).
 *
 * <pre>{@code
 * Net net = catalog.net();
 * net.install(builder);                          // open_softirq(NET_RX_SOFTIRQ, net_rx_action)
 * Net.Connection c = net.newConnection("ttcp");
 * sender: .syscall(c.send)   receiver: .syscall(c.recv)
 * }</pre>
 */
@Models(file = "net/core/dev.c", function = "net_rx_action", version = "2.4.17")
public final class Net {

  /*
   * Implementation overview
   *
   * The sender copies a segment from user space (csum_and_copy_from_user, one lo MTU of
   * 16 KiB = 4 pages), and hands it to the loopback device with bottom halves off;
   * loopback_xmit calls netif_rx, which queues it on the CPU's backlog and raises NET_RX. The
   * softirq runs at local_bh_enable, still in the sender's context: net_rx_action takes up to
   * netdev_max_backlog = 300 packets (2.4.17), each through ip_rcv and tcp_v4_rcv, and wakes
   * the receiving socket. The receiver copies the data out in memcpy_toiovec, where the
   * low-latency patch copies page by page with a reschedule point in between.
   *
   * net_rx_action's run is the backlog: every segment sent and not yet delivered, up to
   * netdev_max_backlog; the effect at its end delivers them all.
   */

  /** net_rx_action's loop over the backlog; no patch bounds it. */
  public static final Site NET_RX_ACTION = new Site("net/core/dev.c", "net_rx_action", "net_rx_action");
  /** memcpy_toiovec's per-page copy in tcp_recvmsg. */
  public static final Site MEMCPY_TOIOVEC = new Site("net/core/iovec.c", "memcpy_toiovec", "memcpy_toiovec");

  /** Pages of one loopback segment: lo's MTU of 16436 bytes. */
  public static final long SEGMENT_PAGES = 4;
  /** tcp_transmit_skb + ip_queue_xmit + dev_queue_xmit + loopback_xmit: assumption, 6 us. */
  public static final long XMIT_NS = 6_000;
  /** ip_rcv + tcp_v4_rcv + queueing of one segment (checksum skipped on lo): assumption, 8 us. */
  public static final long RX_PACKET_NS = 8_000;
  /** netdev_max_backlog of net/core/dev.c, 2.4.17. */
  public static final long NETDEV_MAX_BACKLOG = 300;

  /**
   * Packets per net_rx_action run when no segment of this catalog's connections is waiting
   * (see {@link #backlog}): as if a NIC had queued them. Usually one; a NIC that interrupts
   * while the CPU was busy queues more, up to netdev_max_backlog, the tail. Weights are
   * assumptions.
   */
  public static final Distribution NET_RX_RUN =
      Distribution.empirical(new long[] {1, 16, 300}, new double[] {0.95, 0.049, 0.001});

  private final List<Connection> connections = new ArrayList<>();

  /** The NET_RX softirq handler. */
  public final KernelPath netRxAction;

  /** Builds the network paths for one kernel. */
  public Net() {
    netRxAction =
        KernelPath.path("net/core/dev.c", "net_rx_action")
            .loop(NET_RX_ACTION, this::backlog, p -> p.compute(RX_PACKET_NS))
            .effect("tcp_v4_rcv(): queue on sk_receive_queue, sk->data_ready()", c -> {
              for (Connection conn : connections) {
                if (conn.inFlight > 0) {
                  conn.queued += conn.inFlight;
                  conn.inFlight = 0;
                  c.wakeUp(conn.sleep);
                }
              }
            })
            .build();
  }

  /**
   * Packets on the backlog when net_rx_action starts: the segments sent and not yet received,
   * at most netdev_max_backlog; with none (the catalog's own runs raise NET_RX without
   * traffic) a draw from NET_RX_RUN.
   */
  private long backlog(dev.kernellab.kernel.KernelCpu c) {
    long n = 0;
    for (Connection conn : connections) {
      n += conn.inFlight;
    }
    return n > 0 ? Math.min(n, NETDEV_MAX_BACKLOG) : c.sample(NET_RX_RUN);
  }

  /** {@code open_softirq(NET_RX_SOFTIRQ, net_rx_action, NULL)}. */
  public void install(KernelBuilder b) {
    b.openSoftirq(Softirq.NET_RX, netRxAction);
  }

  /** A new TCP connection over lo of this kernel. */
  public Connection newConnection(String name) {
    Connection c = new Connection(name);
    connections.add(c);
    return c;
  }

  /** One TCP connection over loopback: per-kernel socket state and its two system calls. */
  @Models(file = "net/ipv4/tcp.c", function = "tcp_sendmsg", version = "2.4.17")
  @Models(file = "net/ipv4/tcp.c", function = "tcp_recvmsg", version = "2.4.17")
  @Models(file = "net/core/iovec.c", function = "memcpy_toiovec", version = "2.4.17")
  @Models(file = "drivers/net/loopback.c", function = "loopback_xmit", version = "2.4.17")
  @Models(file = "net/core/dev.c", function = "netif_rx", version = "2.4.17")
  public final class Connection {
    private final WaitQueue sleep;
    private long inFlight; // sent, softirq not yet run
    private long queued; // on the receive queue

    /** send(2) of one segment. */
    public final KernelPath send;
    /** recv(2) of one segment: sleeps until one is queued. */
    public final KernelPath recv;

    private Connection(String name) {
      sleep = new WaitQueue("sk_sleep(" + name + ")");
      send =
          KernelPath.path("net/ipv4/tcp.c", "tcp_sendmsg")
              .compute(SEGMENT_PAGES * COPY_PAGE_NS)
              .localBhDisable()
              .compute(XMIT_NS)
              .effect("loopback_xmit(): netif_rx()", c -> inFlight++)
              .raiseSoftirq(Softirq.NET_RX)
              .localBhEnable()
              .build();
      recv =
          KernelPath.path("net/ipv4/tcp.c", "tcp_recvmsg")
              .waitEvent(sleep, () -> queued > 0)
              .effect("skb_unlink()", c -> queued--)
              .call(KernelPath.path("net/core/iovec.c", "memcpy_toiovec")
                  .loop(MEMCPY_TOIOVEC, SEGMENT_PAGES, p -> p.compute(COPY_PAGE_NS))
                  .build())
              .build();
    }

    /** Segments on the receive queue. */
    public long queued() {
      return queued;
    }
  }

  /** The rows of this file. */
  public List<CatalogEntry> entries() {
    Connection sample = new Connection("table");
    return List.of(
        new CatalogEntry(
            "net_rx_action (NET_RX)", netRxAction, List.of("softirq (bh count)"),
            Quantiles.typical(NET_RX_RUN) * RX_PACKET_NS, Quantiles.tail(NET_RX_RUN) * RX_PACKET_NS,
            "a full backlog of 300 packets after a NIC burst (1 run in 1000)",
            "8 us/packet (assumption); netdev_max_backlog 300 (2.4.17)"),
        new CatalogEntry(
            "tcp_sendmsg (lo)", sample.send, List.of("bh off"),
            SEGMENT_PAGES * COPY_PAGE_NS + XMIT_NS, SEGMENT_PAGES * COPY_PAGE_NS + XMIT_NS,
            "none per segment; the softirq it raises runs at local_bh_enable",
            "copy 10 us/page (assumption); xmit 6 us (assumption)"),
        new CatalogEntry(
            "tcp_recvmsg (lo)", sample.recv, List.of(),
            SEGMENT_PAGES * COPY_PAGE_NS, SEGMENT_PAGES * COPY_PAGE_NS,
            "none per segment", "copy 10 us/page (assumption)"));
  }
}
