package dev.kiln;

/**
 * The native objects a device holds beside its arrays, as {@link Device#resources()} counts them:
 * for finding leaks. A program that launches in a loop should see these settle after its first
 * round; counts that grow round after round are a leak, in the program or in Kiln.
 *
 * @param idleRecorders command buffers, each with its fence and fault buffer, made and now idle
 *     (launches, transfers and batches take one and give it back; 0 on the CPU backend)
 * @param openBatches batches made and not yet closed
 * @param buffers native buffers alive: the arrays', and the staging and scratch buffers Kiln keeps
 *     (none on the CPU backend, whose arrays are Java arrays: {@link Device#memory()} counts them)
 */
public record DeviceResources(int idleRecorders, int openBatches, int buffers) {}
