"""PyTorch's Llama decoding beside Kiln's (docs/PERFORMANCE.md): the same model as
dev.kiln.llama (Hugging Face's LlamaForCausalLM computations, written out: RMSNorm, RoPE by
rotate_half with Llama 3's scaled frequencies, grouped-query attention over a static cache,
SwiGLU), batch 1, greedy.

    python3 torch_llama.py --random 1B [--steps 640] [--positions 1024] [--prefill 512]
        # tokens/s, eager and one CUDA graph; the prefill of a 512-token prompt
    python3 torch_llama.py --model DIR --prompt-ids 700,39,269 --steps 64  # greedy ids of a checkpoint

--random builds seeded random float16 weights of Llama 3.2 1B's (or 3B's, 3.1 8B's) shape and times
the steps after the first 128 positions with CUDA events: eager, and each step captured once in a
CUDA graph and replayed (the attention then runs over the whole static cache, masked, as static
caches do). --model reads config.json and the safetensors files (any float type) and prints the
greedy continuation's ids, for the agreement with Kiln's.
"""
import argparse
import glob
import json
import math
import os
import sys
import time

import numpy as np
import torch

PRESETS = {
    "1B": dict(hidden_size=2048, intermediate_size=8192, num_hidden_layers=16, num_attention_heads=32,
               num_key_value_heads=8, head_dim=64, vocab_size=128256, tie_word_embeddings=True),
    "3B": dict(hidden_size=3072, intermediate_size=8192, num_hidden_layers=28, num_attention_heads=24,
               num_key_value_heads=8, head_dim=128, vocab_size=128256, tie_word_embeddings=True),
    "8B": dict(hidden_size=4096, intermediate_size=14336, num_hidden_layers=32, num_attention_heads=32,
               num_key_value_heads=8, head_dim=128, vocab_size=128256, tie_word_embeddings=False),
}
LLAMA3 = dict(rms_norm_eps=1e-5, rope_theta=500000.0,
              rope_scaling=dict(factor=32.0, low_freq_factor=1.0, high_freq_factor=4.0,
                                original_max_position_embeddings=8192, rope_type="llama3"))


def inverse_frequencies(c):
    hd = c.get("head_dim") or c["hidden_size"] // c["num_attention_heads"]
    s = c.get("rope_scaling")
    out = []
    for i in range(hd // 2):
        freq = 1 / c.get("rope_theta", 10000.0) ** (2 * i / hd)
        if s:
            wavelength = 2 * math.pi / freq
            low = s["original_max_position_embeddings"] / s["low_freq_factor"]
            high = s["original_max_position_embeddings"] / s["high_freq_factor"]
            if wavelength > low:
                freq = freq / s["factor"]
            elif wavelength >= high:
                smooth = ((s["original_max_position_embeddings"] / wavelength - s["low_freq_factor"])
                          / (s["high_freq_factor"] - s["low_freq_factor"]))
                freq = (1 - smooth) * freq / s["factor"] + smooth * freq
        out.append(freq)
    return torch.tensor(out, dtype=torch.float64)


def read_safetensors(folder):
    """Every tensor of the folder's safetensors files, as float32 numpy arrays."""
    names = {"F16": np.float16, "F32": np.float32}
    tensors = {}
    for path in sorted(glob.glob(os.path.join(folder, "*.safetensors"))):
        with open(path, "rb") as f:
            data = f.read()
        length = int.from_bytes(data[:8], "little")
        header = json.loads(data[8:8 + length])
        for name, entry in header.items():
            if name == "__metadata__":
                continue
            begin, end = entry["data_offsets"]
            raw = data[8 + length + begin:8 + length + end]
            if entry["dtype"] == "BF16":
                bits = np.frombuffer(raw, dtype=np.uint16).astype(np.uint32) << 16
                values = bits.view(np.float32)
            else:
                values = np.frombuffer(raw, dtype=names[entry["dtype"]]).astype(np.float32)
            tensors[name] = values.reshape(entry["shape"])
    return tensors


class Llama:
    def __init__(self, c, weights, positions, device, dtype):
        self.c, self.device, self.dtype = c, device, dtype
        self.hd = c.get("head_dim") or c["hidden_size"] // c["num_attention_heads"]
        self.heads, self.kv = c["num_attention_heads"], c["num_key_value_heads"]
        self.eps = c.get("rms_norm_eps", 1e-5)
        self.w = {k: v.to(device=device, dtype=dtype) for k, v in weights.items()}
        if c.get("tie_word_embeddings"):
            self.w["lm_head.weight"] = self.w["model.embed_tokens.weight"]
        angles = torch.arange(positions, dtype=torch.float64)[:, None] * inverse_frequencies(c)[None, :]
        self.cos = torch.cat([angles.cos()] * 2, -1).to(device=device, dtype=torch.float32)
        self.sin = torch.cat([angles.sin()] * 2, -1).to(device=device, dtype=torch.float32)
        layers = c["num_hidden_layers"]
        self.keys = torch.zeros(layers, positions, self.kv, self.hd, device=device, dtype=dtype)
        self.values = torch.zeros_like(self.keys)
        self.steps = torch.arange(positions, device=device)

    def norm(self, x, name):
        x32 = x.float()
        return (x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + self.eps)).to(self.dtype) * self.w[name]

    def rope(self, x, position):
        cos, sin = self.cos[position].to(self.dtype), self.sin[position].to(self.dtype)
        half = self.hd // 2
        rotated = torch.cat([-x[..., half:], x[..., :half]], -1)
        return x * cos + rotated * sin

    def step(self, token, position, hidden=False):
        """Logits after `token` (a 1-element tensor) at `position` (a 1-element long tensor), and
        the final normalized hidden state where `hidden`."""
        w, hd = self.w, self.hd
        x = w["model.embed_tokens.weight"][token]  # [1, hidden]
        mask = torch.where(self.steps <= position, 0.0, float("-inf")).to(self.dtype)
        for layer in range(self.c["num_hidden_layers"]):
            p = f"model.layers.{layer}."
            h = self.norm(x, p + "input_layernorm.weight")
            q = self.rope((h @ w[p + "self_attn.q_proj.weight"].T).view(self.heads, hd), position)
            k = self.rope((h @ w[p + "self_attn.k_proj.weight"].T).view(self.kv, hd), position)
            v = (h @ w[p + "self_attn.v_proj.weight"].T).view(self.kv, hd)
            self.keys[layer].index_copy_(0, position, k[None])
            self.values[layer].index_copy_(0, position, v[None])
            group = self.heads // self.kv
            keys = self.keys[layer].repeat_interleave(group, dim=1)  # positions, heads, hd
            values = self.values[layer].repeat_interleave(group, dim=1)
            scores = torch.einsum("hd,phd->hp", q, keys) / math.sqrt(hd) + mask
            attention = torch.einsum("hp,phd->hd", scores.float().softmax(-1).to(self.dtype), values)
            x = x + attention.reshape(1, -1) @ w[p + "self_attn.o_proj.weight"].T
            h = self.norm(x, p + "post_attention_layernorm.weight")
            gate = h @ w[p + "mlp.gate_proj.weight"].T
            x = x + (torch.nn.functional.silu(gate) * (h @ w[p + "mlp.up_proj.weight"].T)) @ w[p + "mlp.down_proj.weight"].T
        h = self.norm(x, "model.norm.weight")
        logits = (h @ w["lm_head.weight"].T).float()
        return (logits, h.float()) if hidden else logits


    def prefill(self, tokens):
        """The cache's first len(tokens) positions from `tokens` (a long tensor), all at once
        (causal attention, torch's scaled_dot_product_attention), as a prompt's prefill."""
        w, hd, n = self.w, self.hd, tokens.numel()
        x = w["model.embed_tokens.weight"][tokens]  # [n, hidden]
        cos, sin = self.cos[:n, None].to(self.dtype), self.sin[:n, None].to(self.dtype)
        half = hd // 2
        def rope(t):
            return t * cos + torch.cat([-t[..., half:], t[..., :half]], -1) * sin
        group = self.heads // self.kv
        for layer in range(self.c["num_hidden_layers"]):
            p = f"model.layers.{layer}."
            h = self.norm(x, p + "input_layernorm.weight")
            q = rope((h @ w[p + "self_attn.q_proj.weight"].T).view(n, self.heads, hd))
            k = rope((h @ w[p + "self_attn.k_proj.weight"].T).view(n, self.kv, hd))
            v = (h @ w[p + "self_attn.v_proj.weight"].T).view(n, self.kv, hd)
            self.keys[layer, :n] = k
            self.values[layer, :n] = v
            attention = torch.nn.functional.scaled_dot_product_attention(
                q.transpose(0, 1), k.repeat_interleave(group, 1).transpose(0, 1),
                v.repeat_interleave(group, 1).transpose(0, 1), is_causal=True)
            x = x + attention.transpose(0, 1).reshape(n, -1) @ w[p + "self_attn.o_proj.weight"].T
            h = self.norm(x, p + "post_attention_layernorm.weight")
            gate = h @ w[p + "mlp.gate_proj.weight"].T
            x = x + (torch.nn.functional.silu(gate) * (h @ w[p + "mlp.up_proj.weight"].T)) @ w[p + "mlp.down_proj.weight"].T
        return x


def time_prefill(model, length):
    """Median milliseconds of 9 prefills of `length` random tokens, after one."""
    tokens = torch.randint(0, model.c["vocab_size"], (length,), device=model.device)
    times = []
    for r in range(10):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        model.prefill(tokens)
        end.record()
        torch.cuda.synchronize()
        if r > 0:
            times.append(start.elapsed_time(end))
    return sorted(times)[len(times) // 2]


def random_weights(c, seed):
    g = torch.Generator().manual_seed(seed)
    h, f, hd = c["hidden_size"], c["intermediate_size"], c["head_dim"]
    q, kv = c["num_attention_heads"] * hd, c["num_key_value_heads"] * hd
    def matrix(rows, cols):
        return (torch.rand(rows, cols, generator=g) - 0.5) * (1 / math.sqrt(cols))
    w = {"model.embed_tokens.weight": matrix(c["vocab_size"], h), "model.norm.weight": torch.ones(h)}
    if not c["tie_word_embeddings"]:
        w["lm_head.weight"] = matrix(c["vocab_size"], h)
    for layer in range(c["num_hidden_layers"]):
        p = f"model.layers.{layer}."
        for name, shape in [("self_attn.q_proj", (q, h)), ("self_attn.k_proj", (kv, h)),
                            ("self_attn.v_proj", (kv, h)), ("self_attn.o_proj", (h, q)),
                            ("mlp.gate_proj", (f, h)), ("mlp.up_proj", (f, h)), ("mlp.down_proj", (h, f))]:
            w[p + name + ".weight"] = matrix(*shape)
        w[p + "input_layernorm.weight"] = torch.ones(h)
        w[p + "post_attention_layernorm.weight"] = torch.ones(h)
    return w


def time_steps(model, steps, warm, graphed, forward=None):
    """Tokens/s of greedy steps past `warm`, each step `forward` (model.step where None), the
    step replayed as one CUDA graph where `graphed`."""
    forward = forward or model.step
    token = torch.ones(1, dtype=torch.long, device=model.device)
    position = torch.zeros(1, dtype=torch.long, device=model.device)
    def run():
        token.copy_(forward(token, position).argmax(-1))
        position.add_(1)
    step = run
    if graphed:
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            for _ in range(3):
                run()
        torch.cuda.current_stream().wait_stream(stream)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            run()
        step = graph.replay
    position.fill_(0)
    for _ in range(warm):
        step()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(steps - warm):
        step()
    end.record()
    torch.cuda.synchronize()
    return (steps - warm) / (start.elapsed_time(end) / 1000)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--random")
    parser.add_argument("--model")
    parser.add_argument("--prompt-ids")
    parser.add_argument("--steps", type=int, default=640)
    parser.add_argument("--positions", type=int, default=1024)
    parser.add_argument("--prefill", type=int, default=512)
    parser.add_argument("--compile", default="",
                        help="torch.compile modes to time, comma-separated: 'default' (no graph of "
                             "ours), 'max-autotune-no-cudagraphs' (then one CUDA graph a step)")
    args = parser.parse_args()
    with torch.no_grad():
        if args.random:
            c = dict(PRESETS[args.random], **LLAMA3)
            model = Llama(c, random_weights(c, 20261205), args.positions, "cuda", torch.float16)
            name = torch.cuda.get_device_name()
            for graphed in (False, True):
                rate = time_steps(model, args.steps, min(128, args.steps // 2), graphed)
                print(f"torch Llama {args.random} f16 on {name}: {'one CUDA graph per step' if graphed else 'eager'},"
                      f" positions 128-{args.steps - 1}: {rate:.1f} tokens/s")
            for mode in filter(None, args.compile.split(",")):
                began = time.time()
                compiled = torch.compile(model.step, mode=mode)
                graphed = mode != "default"
                rate = time_steps(model, args.steps, min(128, args.steps // 2), graphed, compiled)
                print(f"torch Llama {args.random} f16 on {name}: torch.compile mode {mode}"
                      f"{' + one CUDA graph per step' if graphed else ''}, positions 128-{args.steps - 1}:"
                      f" {rate:.1f} tokens/s (compiled and timed in {time.time() - began:.0f} s)", flush=True)
            if args.prefill:
                ms = time_prefill(model, args.prefill)
                print(f"torch Llama {args.random} f16 prefill of {args.prefill} tokens, eager: {ms:.2f} ms"
                      f" (CUDA events, median), {args.prefill / ms * 1000:.0f} tokens/s")
        else:
            with open(os.path.join(args.model, "config.json")) as f:
                c = json.load(f)
            weights = {k: torch.from_numpy(v.copy()) for k, v in read_safetensors(args.model).items()}
            device = "cuda" if torch.cuda.is_available() else "cpu"
            model = Llama(c, weights, args.positions, device, torch.float32)
            tokens = [int(t) for t in args.prompt_ids.split(",")]
            for p in range(len(tokens) + args.steps - 1):
                logits = model.step(torch.tensor([tokens[p]], device=device), torch.tensor([p], device=device))
                if p + 1 >= len(tokens):
                    tokens.append(int(logits.argmax(-1)))
            print(",".join(str(t) for t in tokens))


if __name__ == "__main__":
    sys.exit(main())
