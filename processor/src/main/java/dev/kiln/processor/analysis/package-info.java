/**
 * Analyses of a program's indices: facts about locals, index forms as functions of the ids,
 * orderings of accesses, index bounds under guards. Fusion, race detection, bounds-check removal
 * and the SPIR-V writer read their results.
 */
package dev.kiln.processor.analysis;
