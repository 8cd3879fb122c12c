package dev.kernellab.hw;

import static java.lang.annotation.ElementType.CONSTRUCTOR;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Documented;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * Names the kernel function (or struct, or macro) that the annotated class, method or
 * constructor models: its source file, its name, and the kernel or patch version it follows.
 *
 * <p>For two readers. A person reading a class beside the C source finds at the top of it which
 * function of which file and version to open. {@code kernel-lab xref} reads the annotations of
 * every module at run time and prints the table the other way round, kernel function to Java
 * element, so that a reader of the C source finds where each function is modelled.
 *
 * <p>Put it on the most specific element that models the function: the class when the whole
 * class stands for it, a method (or a nested class) when a class models several functions. It
 * repeats: a class that models several functions of one file carries one annotation for each.
 * Name the function as the C source spells it; for a struct write {@code struct name}, for a
 * macro its name.
 *
 * <pre>
 * &#64;Models(file = "kernel/sched.c", function = "scheduler_tick", version = "2.5.5")
 * final class SchedulerTick { ... }
 *
 * &#64;Models(file = "mm/filemap.c", function = "do_generic_file_read", version = "2.4.17")
 * &#64;Models(file = "mm/filemap.c", function = "generic_file_write", version = "2.4.17")
 * public final class Filemap { ... }
 *
 * &#64;Models(file = "include/linux/low-latency.h", function = "conditional_schedule",
 *     version = "low-latency 2.4 (2.4.32 copy)")
 * static KernelPath hook(PatchedSite ps, ...) { ... }
 * </pre>
 */
@Documented
@Retention(RUNTIME)
@Target({TYPE, METHOD, CONSTRUCTOR})
@Repeatable(Models.List.class)
public @interface Models {

  /**
   * The kernel source file, from the top of the tree: {@code "kernel/sched.c"},
   * {@code "arch/i386/kernel/entry.S"}, or a file a patch adds, such as
   * {@code "include/linux/low-latency.h"}.
   */
  String file();

  /**
   * The function, as the C source names it ({@code "scheduler_tick"}), or a struct
   * ({@code "struct prio_array"}) or macro ({@code "EXPIRED_STARVING"}).
   */
  String function();

  /**
   * The version of the source followed: a kernel release ({@code "2.4.17"}, {@code "2.5.5"}) or
   * a patch ({@code "preempt-kernel-rml-2.4.17-1"}, {@code "low-latency 2.4 (2.4.32 copy)"}).
   */
  String version();

  /** The container of repeated {@link Models} annotations on one element. */
  @Documented
  @Retention(RUNTIME)
  @Target({TYPE, METHOD, CONSTRUCTOR})
  @interface List {
    /** The annotations, in source order. */
    Models[] value();
  }
}
