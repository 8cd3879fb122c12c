/**
 * A timing model of the loopback network that the stress load's ttcp and its loopback NFS mount
 * use: {@code Net} makes connections and datagram sockets over lo, each with its per-kernel socket
 * state and its send and receive system calls, the receive side running in the NET_RX softirq.
 *
 * <p>Models Linux 2.4.17: net/ipv4/tcp.c, tcp_input.c, tcp_output.c and udp.c,
 * net/core/iovec.c and dev.c, drivers/net/loopback.c, and net/sunrpc/xprt.c and svcsock.c (each
 * function in docs/xref.md).
 *
 * <p>Start reading with {@code Net}, the package's one class: {@code tcp_sendmsg()} first.
 */
package dev.kernellab.paths.net;
