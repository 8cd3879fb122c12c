/**
 * A timing model of the Linux 2.4.17 TCP loopback path that the stress load's ttcp and its
 * loopback NFS mount use: net/ipv4/tcp.c {@code tcp_sendmsg()} and {@code tcp_recvmsg()} with
 * net/core/iovec.c {@code memcpy_toiovec()}, drivers/net/loopback.c {@code loopback_xmit()},
 * net/core/dev.c {@code netif_rx()} and the NET_RX softirq {@code net_rx_action()}. {@code Net}
 * makes connections over lo, each with its per-kernel socket state and its send and receive
 * system calls.
 */
package dev.kernellab.paths.net;
