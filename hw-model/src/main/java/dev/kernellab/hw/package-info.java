/**
 * The simulated 2002 PC the kernel runs on: {@code Machine} and {@code MachineSpec}, the x86
 * {@code Cpu} (interrupt flag, local APIC IRR/ISR, work segments), its {@code LocalApic} (timer
 * and IPIs), the {@code IoApic} with its {@code IrqRouting}, the i8254 {@code Pit}, the MC146818
 * {@code Rtc}, an {@code IdeDisk}, and the fixed costs of {@code CostTable}. The devices are
 * modelled as Linux 2.4.17 programs them: arch/i386/kernel/apic.c, io_apic.c, smp.c and time.c,
 * include/asm-i386/hw_irq.h, drivers/char/rtc.c and drivers/ide/ide.c. The machine knows nothing
 * of any kernel; software attaches a {@code CpuListener}. Hardware facts and default costs are
 * those of docs/hardware-and-costs.md.
 */
package dev.kernellab.hw;
