package dev.kernellab.sched.goodness;

import dev.kernellab.kernel.Scheduler;
import dev.kernellab.kernel.SchedulerContract;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The 2.4.17 scheduler passes kernel-core's scheduler contract on 1, 2 and 4 CPUs, except one
 * case 2.4 does not meet (suppressed by name, Guava testlib style, with the reason below).
 *
 * <p>{@code fifoTasksOfOneLevelRunInTheOrderTheyWoke} asks for POSIX FIFO order among
 * SCHED_FIFO tasks of one priority. 2.4.17 does not give it: add_to_runqueue() puts every woken
 * task at the head of the list and schedule() keeps the first of equal goodness, so among equal
 * real-time tasks the one woken last runs first. {@code GoodnessRealTimeTests} pins what 2.4
 * does instead.
 */
@ExtendWith(GoodnessSchedulerContractTests.Suppressed.class)
class GoodnessSchedulerContractTests extends SchedulerContract {

  @Override
  protected Scheduler newScheduler() {
    return new GoodnessScheduler();
  }

  /** Disables the contract cases 2.4.17 does not satisfy, each with its reason. */
  static final class Suppressed implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      if (context.getTestMethod().map(m -> m.getName()).orElse("")
          .equals("fifoTasksOfOneLevelRunInTheOrderTheyWoke")) {
        return ConditionEvaluationResult.disabled(
            "2.4.17 queues woken tasks at the list head: equal-priority FIFO tasks run LIFO");
      }
      return ConditionEvaluationResult.enabled("in the 2.4 contract");
    }
  }
}
