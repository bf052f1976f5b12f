"""Writes the safetensors fixture of SafeTensorsTest with Hugging Face's `safetensors` (0.8.0):
three small tensors whose values the test computes too.

    pip install safetensors==0.8.0 numpy
    python3 llama/src/test/python/make_safetensors_fixture.py llama/src/test/resources/dev/kiln/llama/weights
"""
import sys

import numpy as np
from safetensors.numpy import save_file


def main(out):
    values = (np.arange(2 * 3 * 4, dtype=np.float32) - 7.25) / 4  # exact in float16
    save_file({
        "model.embed_tokens.weight": values.reshape(6, 4).astype(np.float16),
        "model.norm.weight": values[:5].copy(),
        "model.layers.0.mlp.up_proj.weight": values.reshape(2, 3, 4).astype(np.float16),
    }, out + "/tiny.safetensors", metadata={"format": "pt"})


if __name__ == "__main__":
    main(sys.argv[1])
