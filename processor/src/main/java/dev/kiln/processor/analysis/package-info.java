/**
 * Analyses of a program's indices: facts about locals, index forms as functions of the ids,
 * orderings of accesses, index bounds under guards ({@code IndexBounds}, from the walk {@code
 * IndexWalk} and what it recorded, {@code AccessRecord}), own-element proofs, alias conflicts and
 * split forms. Fusion, race detection, bounds-check removal, the SPIR-V writer and the kernel's
 * description read their results.
 */
package dev.kiln.processor.analysis;
