/**
 * Lowering: from javac's attributed trees of a kernel body to the IR. {@code KernelLowering} lowers
 * statements, with {@code Switches}, {@code Loops}, {@code Jumps}, {@code LocalArrays} and {@code
 * ExpressionStatements}; {@code ExpressionLowering} expressions, with {@code CallLowering}
 * (intrinsics, library methods), {@code MatrixLowering} and {@code HelperInlining}, which know it
 * as {@code Expressions}. Helpers of other classes are lowered when javac analyzes their class and
 * linked into the kernels afterwards. Every construct the kernel language lacks is reported here,
 * on its tree.
 */
package dev.kiln.processor.lower;
