"""Writes the tokenizer fixture of TokenizerTest: a small byte-level BPE tokenizer trained with
Hugging Face's `tokenizers` in Llama 3's form (its split regex, ByteLevel without a regex of its
own, ignore_merges, <|begin_of_text|> by template, Llama 3's special tokens), and the ids
`tokenizers` gives for test strings, which Kiln's Tokenizer must give too.

    pip install tokenizers==0.23.2
    python3 llama/src/test/python/make_tokenizer_fixture.py llama/src/test/resources/dev/kiln/llama/text
"""
import json
import random
import sys

from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, processors, trainers

LLAMA3_SPLIT = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|"
                r" ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
SPECIALS = ["<|begin_of_text|>", "<|end_of_text|>", "<|start_header_id|>", "<|end_header_id|>",
            "<|eot_id|>"]
TESTS = [
    "",
    "a",
    "Hello, world! It's 2026-12-05 and we've 12345 tokens.",
    "DON'T SHOUT, I'LL listen; she'd've said You're RIGHT",
    "  leading spaces\n\n\ttabs and\r\nCRLF   trailing   ",
    "naïve café — résumé; 日本語のテキスト 🤖🚀 Ωmega ∑ ≠",
    "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nWhat's 2+2?<|eot_id|>",
    "def f(x):\n    return x**2  # square\n\n\n",
    "1 12 123 1234 12345678 3.14159 -0.5e-10",
    "the the the thethethe theory therefore",
    "tabs\t\tand  double  spaces\u00a0nbsp\u2003em",
    "<|eot_id|>text between<|end_of_text|>",
]


def corpus():
    rng = random.Random(20261205)
    words = ("the quick brown fox jumps over a lazy dog while kiln compiles kernels for the gpu and"
             " java runs them on vulkan with llama tokens of text numbers code data model layer"
             " attention norm softmax it's we've they're I'll you'd").split()
    lines = []
    for _ in range(3000):
        line = " ".join(rng.choice(words) for _ in range(rng.randint(3, 14)))
        if rng.random() < 0.3:
            line = line.capitalize() + rng.choice([".", "!", "?", ",", ";"])
        if rng.random() < 0.2:
            line += " " + str(rng.randint(0, 10 ** rng.randint(1, 7)))
        if rng.random() < 0.1:
            line = "    " + line.replace(" ", "_") + "(x) {"
        if rng.random() < 0.05:
            line += " café naïve 日本語 テキスト"
        lines.append(line)
    return lines


def main(out):
    tokenizer = Tokenizer(models.BPE(ignore_merges=True))
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(LLAMA3_SPLIT), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True, use_regex=False),
    ])
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=700, min_frequency=2, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tokenizer.train_from_iterator(corpus(), trainer)
    tokenizer.add_special_tokens(SPECIALS)
    bos = tokenizer.token_to_id("<|begin_of_text|>")
    tokenizer.post_processor = processors.Sequence([
        processors.ByteLevel(trim_offsets=False),
        processors.TemplateProcessing(single="<|begin_of_text|> $A", pair="<|begin_of_text|> $A $B",
                                      special_tokens=[("<|begin_of_text|>", bos)]),
    ])
    tokenizer.save(out + "/tokenizer.json")
    expected = []
    for text in TESTS:
        encoding = tokenizer.encode(text)
        expected.append({"text": text, "ids": encoding.ids,
                         "plain": tokenizer.encode(text, add_special_tokens=False).ids,
                         "decoded": tokenizer.decode(encoding.ids, skip_special_tokens=False)})
    with open(out + "/tokenizer-expected.json", "w", encoding="utf-8") as f:
        json.dump({"tokenizers": __import__("tokenizers").__version__, "cases": expected}, f,
                  ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
