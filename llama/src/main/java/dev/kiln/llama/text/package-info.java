/**
 * Text to token ids and back: {@link dev.kiln.llama.text.Tokenizer} reads the byte-level BPE
 * tokenizer of a Hugging Face {@code tokenizer.json} as Llama 3 ships it, and gives the ids Hugging
 * Face's {@code tokenizers} gives.
 */
package dev.kiln.llama.text;
