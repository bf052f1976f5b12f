/**
 * The Kiln annotation processor: {@link dev.kiln.processor.KilnProcessor} reads the kernels'
 * signatures and groups when javac processes annotations, and compiles their bodies from javac's
 * attributed trees when javac is about to lower each class: lowering to the IR, checks, passes and
 * analyses, then SPIR-V, the CPU twins and the launchers.
 */
package dev.kiln.processor;
