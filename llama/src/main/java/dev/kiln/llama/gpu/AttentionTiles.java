package dev.kiln.llama.gpu;

import dev.kiln.llama.model.LlamaConfig;

/**
 * The workgroup arrays' lengths of the attention kernels for a model's heads: of {@link
 * LlamaKernels#attendSpan}, a span's keys (rows padded to {@code headDim + 1}), its values, a
 * key-value head's queries, their scores over a span; of {@link PrefillKernels#attendBlock}, a
 * block's query vectors (rows padded), a tile (rows padded), the vectors' scores over it (rows of
 * {@code TILE + 1}).
 */
record AttentionTiles(
    int keys, int values, int queries, int scores, int blockQueries, int tile, int blockScores) {
  static AttentionTiles of(LlamaConfig config) {
    int group = config.heads() / config.kvHeads();
    int headDim = config.headDim();
    return new AttentionTiles(
        LlamaKernels.SPAN * (headDim + 1),
        LlamaKernels.SPAN * headDim,
        group * headDim,
        group * LlamaKernels.SPAN,
        PrefillKernels.VECTORS * (headDim + 1),
        PrefillKernels.TILE * (headDim + 1),
        PrefillKernels.VECTORS * (PrefillKernels.TILE + 1));
  }
}
