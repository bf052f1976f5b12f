/**
 * A checkpoint's tensors: {@link dev.kiln.llama.weights.SafeTensors} reads the headers of Hugging
 * Face safetensors files (one, or shards behind an index) and maps each tensor's data when asked;
 * {@link dev.kiln.llama.weights.SafeTensorsWriter} writes such files.
 */
package dev.kiln.llama.weights;
