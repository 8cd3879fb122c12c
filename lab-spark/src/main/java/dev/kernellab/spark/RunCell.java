package dev.kernellab.spark;

import dev.kernellab.lab.CellJson;
import java.io.Serializable;
import org.apache.spark.TaskContext;
import scala.collection.Iterator;
import scala.runtime.AbstractFunction2;

/**
 * What a Spark task does with its partition, one cell's line: runs it ({@link CellJson#run}) and
 * returns the outcome line. A class rather than a lambda so that what is shipped to executors is
 * this small named class and nothing it happens to capture.
 */
final class RunCell extends AbstractFunction2<TaskContext, Iterator<String>, String> implements Serializable {

  private static final long serialVersionUID = 1L;

  @Override
  public String apply(TaskContext task, Iterator<String> cells) {
    String cell = cells.next();
    if (cells.hasNext()) {
      throw new IllegalStateException("a partition holds one cell, this one more");
    }
    return CellJson.run(cell);
  }
}
