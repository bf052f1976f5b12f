package dev.kiln.llama.gpu;

import dev.kiln.FloatArray;
import dev.kiln.ShortArray;

/**
 * One decoder layer's arrays on the device: its norms' weights, its 16-bit matrices (q, k and v
 * rows stored together, as gate and up), and its key and value caches.
 */
record Layer(
    FloatArray attentionNorm,
    ShortArray qkv,
    ShortArray attentionOutput,
    FloatArray feedForwardNorm,
    ShortArray gateUp,
    ShortArray down,
    FloatArray keys,
    FloatArray values) {}
