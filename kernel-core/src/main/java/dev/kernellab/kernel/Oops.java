package dev.kernellab.kernel;

import dev.kernellab.hw.Models;
import java.util.Locale;

/**
 * The text of a {@link KernelBug}, laid out as an i386 oops of the era ({@code die()} in
 * arch/i386/kernel/traps.c, 2.4.17: the CPU, the process, then the stack) with what a model
 * can say beyond registers: every context stacked on the CPU with its frames and the operation
 * each stands at, the locks the CPU holds, the preempt count, the interrupt flag, the other
 * CPUs' current tasks, and the tail of the event ring.
 */
@Models(file = "arch/i386/kernel/traps.c", function = "die", version = "2.4.17")
final class Oops {

  private Oops() {}

  static String report(Kernel k, KernelCpu c, RecentEvents recent) {
    StringBuilder sb = new StringBuilder();
    Task t = c.current;
    sb.append(String.format(Locale.ROOT, "CPU: %d  t=%d ns  jiffies=%d%n", c.id, k.now(), k.jiffies()));
    sb.append("Process ").append(t.comm()).append(" (pid: ").append(t.pid())
        .append(", state ").append(t.state()).append(", need_resched ").append(t.needResched() ? 1 : 0)
        .append(')').append('\n');
    sb.append(PreemptCount.describe(t.preemptCount))
        .append("  interrupts: ").append(c.cpu.interruptsEnabled() ? "on" : "off")
        .append("  segment: ").append(c.cpu.segment()).append('\n');
    sb.append("locks held on cpu").append(c.id).append(':');
    if (c.heldCount == 0) {
      sb.append(" none");
    }
    for (int i = 0; i < c.heldCount; i++) {
      sb.append(' ').append(c.held[i]);
    }
    sb.append('\n');
    sb.append("contexts, innermost first:\n");
    for (int d = c.contextDepth - 1; d >= 0; d--) {
      ExecContext ctx = c.contexts[d];
      sb.append("  ").append(ctx.kind.name().toLowerCase(Locale.ROOT));
      if (ctx.kind == ExecContext.Kind.HARDIRQ) {
        sb.append(" vector 0x").append(Integer.toHexString(ctx.vector));
      }
      sb.append('\n');
      appendFrames(sb, ctx);
    }
    sb.append("  task ").append(t).append('\n');
    appendFrames(sb, t.context);
    sb.append("other CPUs:").append(k.cpuCount() == 1 ? " none" : "");
    for (int i = 0; i < k.cpuCount(); i++) {
      if (i != c.id) {
        KernelCpu o = k.cpu(i);
        sb.append(" cpu").append(i).append('=').append(o.current)
            .append(o.contextDepth > 0 ? " (in interrupt)" : "");
      }
    }
    sb.append('\n');
    if (recent != null) {
      sb.append("last events, oldest first:\n");
      recent.appendTo(sb, "  ");
    } else {
      sb.append("(no event ring: debug checks recentEvents is off)\n");
    }
    return sb.toString();
  }

  private static void appendFrames(StringBuilder sb, ExecContext ctx) {
    if (ctx.irqFlagsDepth > 0) {
      sb.append("    saved irq flags: ").append(ctx.irqFlagsDepth).append('\n');
    }
    for (int i = ctx.depth - 1; i >= 0; i--) {
      ExecContext.Frame f = ctx.frame(i);
      sb.append("    #").append(i).append(' ').append(f.path.location());
      if (f.path.site() != null) {
        sb.append(" [site ").append(f.path.site().key()).append(", iteration ").append(f.iteration).append(']');
      }
      sb.append(f.user ? " (user)" : "");
      if (f.pc < f.path.size()) {
        sb.append("  op ").append(f.pc).append('/').append(f.path.size()).append(": ")
            .append(f.path.op(f.pc).describe());
        if (f.phase != 0) {
          sb.append(" (step ").append(f.phase).append(')');
        }
      } else {
        sb.append("  at its end");
      }
      if (f.computing) {
        sb.append(", ").append(f.computeLeftNs).append(" ns of compute left");
      }
      if (f.spinning) {
        sb.append(", spinning");
      }
      sb.append('\n');
    }
  }
}
