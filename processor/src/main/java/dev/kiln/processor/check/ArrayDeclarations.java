package dev.kiln.processor.check;

import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.SharedArray;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Arrays a kernel creates need a constant positive length (a GPU array's size is part of its type),
 * or for workgroup memory an {@code int} parameter of the kernel (its module's specialization
 * constant, which each launch sets; not beside cooperative matrices, which NVIDIA's driver 580 then
 * loads wrongly from workgroup memory: docs/DRIVER-GAPS.md), an invocation's own arrays at most
 * {@link #MAX_PRIVATE_BYTES} in all, and workgroup memory must be declared at the top level of the
 * kernel body, or of a helper inlined there as a statement of its own before any {@code return} of
 * the helper can leave: there every invocation that goes on makes the same declarations once, in
 * one order, so that they name the same workgroup arrays, as on the CPU backend (where {@code
 * Gpu.sharedFloats} hands out the workgroup's arrays in the order an invocation asks). Each inlined
 * call of such a helper declares arrays of its own.
 */
public final class ArrayDeclarations {
  /**
   * Bytes of its own arrays an invocation may have: each invocation has a copy, in per-invocation
   * memory that is small and slow when spilled (an {@code int[1 << 20]} compiled, then ran past the
   * fence timeout on the H200 without a message).
   */
  public static final int MAX_PRIVATE_BYTES = 16 * 1024;

  private ArrayDeclarations() {}

  public static List<CheckError> check(Program program) {
    List<CheckError> errors = new ArrayList<>();
    Set<SharedArray> topLevel = new HashSet<>();
    declaredOnce(program.body(), true, topLevel);
    boolean matrices = Walk.anyStatement(program.body(), Stmt.Matrix.class::isInstance);
    for (SharedArray shared : program.shared()) {
      if (!topLevel.contains(shared) || !shared.hasConstantLength() && !sizedByParameter(shared)) {
        errors.add(new CheckError(shared.site(), Errors.sharedDeclaration(shared.intrinsic())));
      } else if (sizedByParameter(shared) && matrices) {
        errors.add(new CheckError(shared.site(), Errors.sharedLengthBesideMatrices()));
      }
    }
    long privateBytes = 0;
    for (PrivateArray array : program.privates()) {
      if (!array.hasConstantLength()) {
        errors.add(new CheckError(array.site(), Errors.privateLength()));
        continue;
      }
      long before = privateBytes;
      privateBytes += (long) array.size() * array.element().bytes();
      if (privateBytes > MAX_PRIVATE_BYTES && before <= MAX_PRIVATE_BYTES) {
        errors.add(
            new CheckError(array.site(), Errors.privateSize(privateBytes, MAX_PRIVATE_BYTES)));
      }
    }
    return errors;
  }

  /**
   * Adds to {@code once} the workgroup arrays that {@code body} declares where each invocation
   * comes once: at its top level, and at the top of an inlined helper's body (a loop that runs
   * once) found there, before any statement that may leave the helper. {@code kernel}: whether
   * {@code body} is the kernel's, where a {@code return} before a declaration ends the invocation.
   */
  private static void declaredOnce(List<Stmt> body, boolean kernel, Set<SharedArray> once) {
    for (Stmt statement : body) {
      switch (statement) {
        case Stmt.DeclareShared declared -> once.add(declared.array());
        case Stmt.Loop loop when runsOnce(loop) -> declaredOnce(loop.body(), false, once);
        default -> {}
      }
      if (!kernel
          && Walk.anyStatement(
              List.of(statement),
              s ->
                  s instanceof Stmt.Break
                      || s instanceof Stmt.Continue
                      || s instanceof Stmt.Return)) {
        return; // a helper's declarations after this are not made by invocations it let go
      }
    }
  }

  /**
   * Whether a launch gives the array's length: an {@code int} parameter of the kernel, as a
   * specialization constant of its module.
   */
  private static boolean sizedByParameter(SharedArray shared) {
    return shared.length() instanceof Expr.ScalarGet get && get.param().type() == PrimType.INT;
  }

  /** An inlined helper's body: a loop that runs once, so that a {@code return} is a break. */
  private static boolean runsOnce(Stmt.Loop loop) {
    return !loop.testFirst() && loop.condition() instanceof Expr.BoolConst(boolean again) && !again;
  }
}
