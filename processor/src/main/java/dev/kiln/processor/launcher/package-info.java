/**
 * The launcher classes, written with JavaPoet: per kernel class one {@code <Class>Kernels} with a
 * {@code KernelSpec} and the launch methods of each kernel and group.
 */
package dev.kiln.processor.launcher;
