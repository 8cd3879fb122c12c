package dev.kernellab.lab;

/**
 * How one cell of a sweep ended: with its figures, or failed. A cell is one {@link Experiment}:
 * workload, configuration, scheduler, CPUs, HZ, duration and seed.
 *
 * <p>A {@link Failure#KERNEL_BUG kernel bug} is a result of the cell's coordinates (the same
 * cell fails the same way on any machine), so an engine reports it and never retries it; a
 * {@link Failure#LOST lost} cell is the engine's failure (an executor that died, retries used up)
 * and runs again on the next sweep that resumes from the same {@code --results} file.
 */
public sealed interface CellOutcome {

  /** The cell's coordinates. */
  Experiment cell();

  /** Why a cell has no figures. */
  enum Failure {
    /** The kernel's debug checks found an inconsistency: a result, not to be retried. */
    KERNEL_BUG,
    /** The engine could not run it (executor lost, retries exhausted): run it again. */
    LOST
  }

  /**
   * The cell ran.
   *
   * @param result its figures
   */
  record Done(ConfigResult result) implements CellOutcome {
    @Override
    public Experiment cell() {
      return result.experiment();
    }
  }

  /**
   * The cell has no figures.
   *
   * @param cell its coordinates
   * @param failure why
   * @param message what happened: a kernel bug's oops, or the engine's reason
   */
  record Failed(Experiment cell, Failure failure, String message) implements CellOutcome {}
}
