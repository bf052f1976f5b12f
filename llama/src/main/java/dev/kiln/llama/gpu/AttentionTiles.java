package dev.kiln.llama.gpu;

import dev.kiln.llama.model.LlamaConfig;

/**
 * The workgroup arrays' lengths of the attention kernels ({@link LlamaKernels#attendSpan}, {@link
 * PrefillKernels#attendRows}) for a model's heads: a span's keys (rows padded to {@code headDim +
 * 1}), its values, a key-value head's queries, their scores over a span.
 */
record AttentionTiles(int keys, int values, int queries, int scores) {
  static AttentionTiles of(LlamaConfig config) {
    int group = config.heads() / config.kvHeads();
    int headDim = config.headDim();
    return new AttentionTiles(
        LlamaKernels.SPAN * (headDim + 1),
        LlamaKernels.SPAN * headDim,
        group * headDim,
        group * LlamaKernels.SPAN);
  }
}
