package dev.kiln.processor.check;

import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.SharedArray;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Arrays a kernel creates need a constant positive length (a GPU array's size is part of its type),
 * an invocation's own arrays at most {@link #MAX_PRIVATE_BYTES} in all, and workgroup memory must
 * be declared at the top level of the kernel body: there every invocation makes the same
 * declarations once, so that they name the same workgroup arrays, as on the CPU backend.
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
    for (Stmt statement : program.body()) {
      if (statement instanceof Stmt.DeclareShared declared) {
        topLevel.add(declared.array());
      }
    }
    for (SharedArray shared : program.shared()) {
      if (!topLevel.contains(shared) || !shared.hasConstantLength()) {
        errors.add(new CheckError(shared.site(), Errors.sharedDeclaration(shared.intrinsic())));
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
}
