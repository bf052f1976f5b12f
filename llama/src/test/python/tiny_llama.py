"""The tiny Llama of ReferenceModelTest, in numpy (float64): its weights come from an integer hash
that TinyCheckpoint.java computes alike (each weight a multiple of 1/256 times a power of two, or
1 plus a multiple of 1/128: exact in float16 and bfloat16), and its forward pass follows Hugging Face's LlamaForCausalLM
(RMSNorm, RoPE by rotate_half with Llama 3's scaled frequencies, grouped-query attention, SwiGLU).
It writes the logits of each step of a prompt and the greedy continuation, which Kiln's reference
model must give within the float-rounding bound.

    python3 llama/src/test/python/tiny_llama.py llama/src/test/resources/dev/kiln/llama/model
"""
import json
import math
import sys

import numpy as np

CONFIG = dict(hidden_size=64, intermediate_size=96, num_hidden_layers=2, num_attention_heads=4,
              num_key_value_heads=2, head_dim=16, vocab_size=705, max_position_embeddings=256,
              rms_norm_eps=1e-5, rope_theta=10000.0, tie_word_embeddings=False,
              rope_scaling=dict(factor=4.0, low_freq_factor=1.0, high_freq_factor=4.0,
                                original_max_position_embeddings=64, rope_type="llama3"),
              model_type="llama")
PROMPT = [700, 39, 269, 75, 78, 11, 264, 268]
STEPS = 8


def weights(name, shape, scale):
    """Element i of tensor `name`: ((h(name) + i * 0x9E3779B1) mod 2^32 >> 26) - 32, / 256 * scale."""
    seed = 0
    for ch in name.encode("utf-8"):
        seed = (seed * 31 + ch) & 0xFFFFFFFF
    n = int(np.prod(shape))
    i = np.arange(n, dtype=np.uint64)
    mixed = (np.uint64(seed) + i * np.uint64(0x9E3779B1)) & np.uint64(0xFFFFFFFF)
    mixed = (mixed ^ (mixed >> np.uint64(15))) * np.uint64(0x2C1B3C6D) & np.uint64(0xFFFFFFFF)
    values = ((mixed >> np.uint64(26)).astype(np.int64) - 32) / 256.0 * scale
    return values.reshape(shape)


def model():
    c = CONFIG
    h, f, hd = c["hidden_size"], c["intermediate_size"], c["head_dim"]
    q, kv = c["num_attention_heads"] * hd, c["num_key_value_heads"] * hd
    w = {"model.embed_tokens.weight": weights("model.embed_tokens.weight", (c["vocab_size"], h), 4),
         "model.norm.weight": 1 + weights("model.norm.weight", (h,), 2),
         "lm_head.weight": weights("lm_head.weight", (c["vocab_size"], h), 1)}
    for layer in range(c["num_hidden_layers"]):
        p = f"model.layers.{layer}."
        for name, shape in [("self_attn.q_proj", (q, h)), ("self_attn.k_proj", (kv, h)),
                            ("self_attn.v_proj", (kv, h)), ("self_attn.o_proj", (h, q)),
                            ("mlp.gate_proj", (f, h)), ("mlp.up_proj", (f, h)),
                            ("mlp.down_proj", (h, f))]:
            w[p + name + ".weight"] = weights(p + name + ".weight", shape, 1)
        for name in ["input_layernorm", "post_attention_layernorm"]:
            w[p + name + ".weight"] = 1 + weights(p + name + ".weight", (h,), 2)
    return w


def inverse_frequencies():
    c, s = CONFIG, CONFIG["rope_scaling"]
    out = []
    for i in range(c["head_dim"] // 2):
        freq = 1 / c["rope_theta"] ** (2 * i / c["head_dim"])
        wavelength = 2 * math.pi / freq
        low = s["original_max_position_embeddings"] / s["low_freq_factor"]
        high = s["original_max_position_embeddings"] / s["high_freq_factor"]
        if wavelength < high:
            out.append(freq)
        elif wavelength > low:
            out.append(freq / s["factor"])
        else:
            smooth = ((s["original_max_position_embeddings"] / wavelength - s["low_freq_factor"])
                      / (s["high_freq_factor"] - s["low_freq_factor"]))
            out.append((1 - smooth) * freq / s["factor"] + smooth * freq)
    return np.array(out)


def rms_norm(x, weight):
    return x / np.sqrt(np.mean(x * x) + CONFIG["rms_norm_eps"]) * weight


def rope(x, position, frequencies):
    half = len(frequencies)
    angle = position * frequencies
    cos, sin = np.cos(angle), np.sin(angle)
    x1, x2 = x[..., :half], x[..., half:]
    return np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)


def step(w, token, position, cache, frequencies):
    c = CONFIG
    hd, heads, kv_heads = c["head_dim"], c["num_attention_heads"], c["num_key_value_heads"]
    x = w["model.embed_tokens.weight"][token].copy()
    for layer in range(c["num_hidden_layers"]):
        p = f"model.layers.{layer}."
        h = rms_norm(x, w[p + "input_layernorm.weight"])
        q = rope((w[p + "self_attn.q_proj.weight"] @ h).reshape(heads, hd), position, frequencies)
        k = rope((w[p + "self_attn.k_proj.weight"] @ h).reshape(kv_heads, hd), position, frequencies)
        v = (w[p + "self_attn.v_proj.weight"] @ h).reshape(kv_heads, hd)
        cache[layer].append((k, v))
        keys = np.stack([entry[0] for entry in cache[layer]])  # positions x kv_heads x hd
        values = np.stack([entry[1] for entry in cache[layer]])
        out = np.zeros((heads, hd))
        for head in range(heads):
            group = head // (heads // kv_heads)
            scores = keys[:, group, :] @ q[head] / math.sqrt(hd)
            scores = np.exp(scores - scores.max())
            out[head] = (scores / scores.sum()) @ values[:, group, :]
        x = x + w[p + "self_attn.o_proj.weight"] @ out.reshape(-1)
        h = rms_norm(x, w[p + "post_attention_layernorm.weight"])
        gate = w[p + "mlp.gate_proj.weight"] @ h
        x = x + w[p + "mlp.down_proj.weight"] @ (gate / (1 + np.exp(-gate)) * (w[p + "mlp.up_proj.weight"] @ h))
    return w["lm_head.weight"] @ rms_norm(x, w["model.norm.weight"])


def main(out):
    w = model()
    frequencies = inverse_frequencies()
    cache = [[] for _ in range(CONFIG["num_hidden_layers"])]
    logits = []
    for position, token in enumerate(PROMPT):
        logits.append(step(w, token, position, cache, frequencies))
    tokens = []
    for _ in range(STEPS):
        token = int(np.argmax(logits[-1]))
        tokens.append(token)
        logits.append(step(w, token, len(PROMPT) + len(tokens) - 1, cache, frequencies))
    with open(out + "/tiny-expected.json", "w") as f:
        json.dump({"config": CONFIG, "prompt": PROMPT, "greedy": tokens,
                   "logits": [[round(float(v), 9) for v in row] for row in logits]}, f)


if __name__ == "__main__":
    main(sys.argv[1])
