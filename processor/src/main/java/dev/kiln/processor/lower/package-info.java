/**
 * Lowering: from javac's attributed trees of a kernel body to the IR. Statements, expressions,
 * calls of intrinsics and library methods, and helper inlining; every construct the kernel language
 * lacks is reported here, on its tree.
 */
package dev.kiln.processor.lower;
