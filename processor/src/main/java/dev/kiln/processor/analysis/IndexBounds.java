package dev.kiln.processor.analysis;

import dev.kiln.processor.ir.ArrayDecl;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Builtin;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.FixedArray;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Workgroup;
import java.util.Map;

/**
 * Indices that the workgroup's shape keeps inside a workgroup or private array for every
 * invocation, whose bounds checks can go: an affine form ({@link IndexForms}) of local ids and a
 * constant whose smallest and largest values, with each local id at 0 or at its last value, lie in
 * the array ({@code tile[Gpu.localId(1) * 16 + Gpu.localId(0)]} or {@code tile[255 - Gpu.localId(0)]}
 * with a {16, 16} workgroup and 256 elements), or a value masked by a non-negative constant below
 * the length ({@code counts[v & 255]}). Computed in long: a value in range did not wrap.
 */
public final class IndexBounds {
  private final IndexForms forms;
  private final Workgroup workgroup;

  private IndexBounds(Program program) {
    this.forms = IndexForms.of(program);
    this.workgroup = program.workgroup();
  }

  public static IndexBounds of(Program program) {
    return new IndexBounds(program);
  }

  /** Whether {@code array[index]} is in bounds for every invocation, by the workgroup's shape alone. */
  public boolean provenWithin(ArrayDecl array, Expr index) {
    if (!(array instanceof FixedArray fixed) || !fixed.hasConstantLength()) {
      return false;
    }
    if (index instanceof Expr.Binary(BinaryOp op, Expr value, Expr.IntConst(int mask)) && op == BinaryOp.AND
        && mask >= 0) {
      return mask < fixed.size(); // value & mask lies in [0, mask]
    }
    if (!(forms.form(index) instanceof IndexForm.Affine affine)) {
      return false;
    }
    long smallest = affine.constant();
    long largest = affine.constant();
    for (Map.Entry<IndexForm.Term, Integer> entry : affine.coefficients().entrySet()) {
      if (!(entry.getKey() instanceof IndexForm.Id id) || id.builtin() != Builtin.LOCAL_ID) {
        return false;
      }
      long span = (long) entry.getValue() * (workgroup.size(id.axis()) - 1); // the term from 0 to this
      smallest += Math.min(0, span);
      largest += Math.max(0, span);
    }
    return smallest >= 0 && largest < fixed.size();
  }
}
