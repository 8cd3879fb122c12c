package dev.kernellab.spark;

import java.util.function.ObjIntConsumer;
import scala.runtime.AbstractFunction2;
import scala.runtime.BoxedUnit;

/**
 * Spark's result handler for {@code runJob}, called on the driver as each task succeeds, with the
 * task's place in the job's partition list and its result.
 */
final class ResultHandler extends AbstractFunction2<Object, String, BoxedUnit> {

  private final ObjIntConsumer<String> onResult;

  ResultHandler(ObjIntConsumer<String> onResult) {
    this.onResult = onResult;
  }

  @Override
  public BoxedUnit apply(Object position, String line) {
    onResult.accept(line, (Integer) position);
    return BoxedUnit.UNIT;
  }
}
