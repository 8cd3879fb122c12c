/**
 * The simulated 2002 PC the kernel runs on: the x86 {@code Cpu} (interrupt flag, local APIC
 * IRR/ISR, work segments), its {@code LocalApic} (timer and IPIs), the {@code IoApic} with its
 * {@code IrqRouting}, the i8254 {@code Pit}, the MC146818 {@code Rtc}, an {@code IdeDisk}, and the
 * fixed costs of {@code CostTable}. The machine knows nothing of any kernel; software attaches a
 * {@code CpuListener}. Hardware facts and default costs are those of docs/hardware-and-costs.md.
 *
 * <p>Models the devices as Linux 2.4.17 programs them: arch/i386/kernel/apic.c, io_apic.c,
 * i8259.c and smp.c, drivers/char/rtc.c and drivers/ide/ide.c (each function in docs/xref.md).
 *
 * <p>Start reading with {@code MachineSpec} (what a machine is made of), then {@code Machine}
 * (how it is wired) and {@code Cpu} (how an interrupt reaches the code).
 */
package dev.kernellab.hw;
