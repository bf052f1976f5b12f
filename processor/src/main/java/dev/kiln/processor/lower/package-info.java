/**
 * Lowering: from javac's attributed trees of a kernel body to the IR. Statements, expressions,
 * calls of intrinsics and library methods, and helper inlining; helpers of other classes are lowered
 * when javac analyzes their class and linked into the kernels afterwards. Every construct the kernel
 * language lacks is reported here, on its tree.
 */
package dev.kiln.processor.lower;
