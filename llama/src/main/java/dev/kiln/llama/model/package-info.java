/**
 * The shape of a Llama-architecture model: {@link dev.kiln.llama.model.LlamaConfig}, read from
 * {@code config.json} or one of the presets of Llama 3.2 1B, 3B and Llama 3.1 8B, with RoPE's
 * frequencies as Llama 3 scales them.
 */
package dev.kiln.llama.model;
