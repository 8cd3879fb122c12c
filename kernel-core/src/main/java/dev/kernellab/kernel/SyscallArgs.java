package dev.kernellab.kernel;

/**
 * What a user program passes to a system call, worked out at the instant of the call: the file
 * and the bytes of a read, the pages of an mmap. The kernel keeps the object on the task for the
 * duration of the call ({@link KernelCpu#syscallArgs(Class)}), and the catalog's paths size
 * their loops from it. To allocate nothing per call, return a per-task object updated in place.
 *
 * <pre>{@code
 * FileIo io = new FileIo(file);                       // one per task
 * .syscall(filemap.read, c -> io.at(offset(c), 4096))
 * }</pre>
 *
 * @param <A> the arguments' type, the one the call's body reads them as
 *     ({@link KernelCpu#syscallArgs(Class)} refuses another)
 */
@FunctionalInterface
public interface SyscallArgs<A> {

  /** The arguments of this call, made by the calling task on {@code cpu}. */
  A at(KernelCpu cpu);
}
