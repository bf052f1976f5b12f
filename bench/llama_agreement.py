"""Kiln's Llama against PyTorch on one checkpoint (issue 50, item 5; docs/PERFORMANCE.md):

    python3 llama_agreement.py --java "java -cp ... " [--shape 1B|3B|8B|tiny] [--type F16|BF16]
        [--steps 64]

writes a seeded random checkpoint of the shape (safetensors and config.json, no tokenizer) to
--folder, then for three prompts (token ids) runs PyTorch (torch_llama.py's model, float32
arithmetic on the 16-bit weights, on CUDA where there is one) and Kiln (`dev.kiln.llama.Generate
--model ... --prompt-ids ... --logits FILE`, a cold JVM each, so its first-token time is a cold
start's) for --steps greedy tokens, with its prefill and without (--no-prefill: the prompt through
the recorded step, float32 throughout), and compares:
- the tokens: without the prefill all --steps must be the same; with it (activations rounded to
  the weights' type as PyTorch's float16 model rounds them) a near tie may turn, and the report
  says how near it was;
- each generated token's logits: |kiln - torch| against the bound of f16 accumulation in the output
  projection, u16 * sum_i |W[j,i] h[i]| per logit j (u16 = 2^-11, h the final normalized hidden
  state): what rounding each product of that one product to float16 could move logit j by. Both
  sides accumulate in float32, so they should agree far inside it; the report gives the largest
  ratio |difference| / bound and the largest difference.
Exits 1 where a token differs or a ratio exceeds 1.
"""
import argparse
import json
import math
import os
import re
import shlex
import subprocess
import sys
import time

import torch

import torch_llama

U16 = 2.0 ** -11
TINY = dict(hidden_size=256, intermediate_size=512, num_hidden_layers=2, num_attention_heads=8,
            num_key_value_heads=2, head_dim=32, vocab_size=1000, tie_word_embeddings=False)


def write_checkpoint(folder, c, dtype, seed):
    """Seeded random weights as torch_llama.random_weights makes them, norms near 1."""
    weights = torch_llama.random_weights(c, seed)
    g = torch.Generator().manual_seed(seed + 1)
    for name in weights:
        if name.endswith("norm.weight"):
            weights[name] = 1 + 0.2 * (torch.rand(weights[name].shape, generator=g) - 0.5)
    os.makedirs(folder, exist_ok=True)
    header, blobs, offset = {}, [], 0
    for name, tensor in weights.items():
        raw = tensor.to(dtype).contiguous().view(torch.int16).numpy().tobytes()
        header[name] = {"dtype": "F16" if dtype == torch.float16 else "BF16",
                        "shape": list(tensor.shape), "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(os.path.join(folder, "model.safetensors"), "wb") as f:
        f.write(len(text).to_bytes(8, "little"))
        f.write(text)
        for raw in blobs:
            f.write(raw)
    config = dict(c, architectures=["LlamaForCausalLM"], model_type="llama",
                  max_position_embeddings=131072)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f)


def torch_run(model, prompt, steps, device):
    """Greedy ids, each generated token's logits and its output-projection bound."""
    tokens, logits, bounds = list(prompt), [], []
    head = model.w["lm_head.weight"].abs()
    for p in range(len(prompt) + steps - 1):
        out, hidden = model.step(torch.tensor([tokens[p]], device=device),
                                 torch.tensor([p], device=device), hidden=True)
        if p + 1 >= len(prompt):
            logits.append(out[0].cpu())
            bounds.append((U16 * (hidden.abs() @ head.T))[0].cpu())
            tokens.append(int(out.argmax(-1)))
    return tokens, torch.stack(logits), torch.stack(bounds)


def kiln_run(java, folder, prompt, steps, positions, prefill):
    path = os.path.join(folder, "kiln-logits.bin")
    command = shlex.split(java) + ["dev.kiln.llama.Generate", "--model", folder, "--prompt-ids",
                                   ",".join(map(str, prompt)), "--steps", str(steps),
                                   "--positions", str(positions), "--logits", path]
    if not prefill:
        command.append("--no-prefill")
    started = time.monotonic()
    out = subprocess.run(command, capture_output=True, text=True)
    wall = time.monotonic() - started
    if out.returncode != 0:
        sys.exit("Kiln failed:\n" + out.stdout + out.stderr)
    ids = [int(t) for t in re.search(r"^ids: (.*)$", out.stdout, re.M).group(1).split(",")]
    first = float(re.search(r"first token (\d+) ms", out.stdout).group(1))
    rate = float(re.search(r"([\d.]+) tokens/s", out.stdout).group(1))
    logits = torch.frombuffer(bytearray(open(path, "rb").read()), dtype=torch.float32)
    return ids, logits.view(-1, logits.numel() // (len(ids) - len(prompt))), first, rate, wall


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--java", required=True)
    parser.add_argument("--shape", default="1B")
    parser.add_argument("--type", default="F16")
    parser.add_argument("--steps", type=int, default=64)
    parser.add_argument("--positions", type=int, default=512)
    parser.add_argument("--folder", default="/tmp/kiln-agreement")
    args = parser.parse_args()
    shapes = dict(torch_llama.PRESETS, tiny=TINY)
    c = dict(shapes[args.shape], **torch_llama.LLAMA3)
    dtype = torch.float16 if args.type == "F16" else torch.bfloat16
    write_checkpoint(args.folder, c, dtype, 20261205)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    weights = {k: torch.from_numpy(v.copy())
               for k, v in torch_llama.read_safetensors(args.folder).items()}
    model = torch_llama.Llama(c, weights, args.positions, device, torch.float32)
    g = torch.Generator().manual_seed(7)
    prompts = [[t % c["vocab_size"] for t in (128000, 791, 6864, 315, 9822, 374)],
               torch.randint(0, c["vocab_size"], (17,), generator=g).tolist(),
               torch.randint(0, c["vocab_size"], (100,), generator=g).tolist()]
    failed = False
    with torch.no_grad():
        for prompt in prompts:
            model.keys.zero_()
            model.values.zero_()
            expected, logits, bounds = torch_run(model, prompt, args.steps, device)
            for prefill in (False, True):
                ids, kiln, first, rate, wall = kiln_run(args.java, args.folder, prompt, args.steps,
                                                        args.positions, prefill)
                same = next((i for i, (a, b) in enumerate(zip(ids, expected)) if a != b), len(ids))
                agreed = same - len(prompt)
                upto = max(min(agreed + 1, len(kiln)), 1)  # the steps fed the same tokens
                diff = (kiln[:upto] - logits[:upto]).abs()
                ratio = float((diff / bounds[:upto]).max())
                tie = ""
                if agreed < args.steps:
                    top = logits[agreed].topk(2).values
                    tie = (f" (at step {agreed} torch's two largest logits differ by "
                           f"{float(top[0] - top[1]):.3g}, the f16 bound there is "
                           f"{float(bounds[agreed].max()):.3g})")
                # the float32 path must give every token; the prefill rounds activations to the
                # weights' type, as PyTorch's float16 model does, and may turn a near tie
                failed |= ratio > 1 or (not prefill and agreed < args.steps)
                print(f"{args.shape} {args.type} prompt of {len(prompt)}, "
                      f"{'prefill' if prefill else 'no prefill'}: {agreed}/{args.steps} greedy "
                      f"tokens agree{tie}; logits |kiln - torch| max {float(diff.max()):.3g} "
                      f"(largest |logit| {float(logits[:upto].abs().max()):.3g}), max ratio to "
                      f"the f16 bound {ratio:.3g}; Kiln cold JVM: first token {first:.0f} ms, "
                      f"{rate:.1f} tokens/s after it, {wall:.1f} s in all")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
