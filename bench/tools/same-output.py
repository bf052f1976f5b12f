#!/usr/bin/env python3
"""Whether two builds wrote the same kernels: every SPIR-V module (.spv) of the first tree against
the one at the same path in the second, instruction by instruction, and every CPU twin class
(*$KilnCpu.class) byte for byte. A refactoring of the processor should change neither.

  python3 bench/tools/same-output.py BEFORE AFTER [--old-format]

BEFORE and AFTER are copies of build outputs (samples/target/classes, samples/target/test-classes,
bench/target/classes, ...). --old-format drops from BEFORE's modules what modules written before
kernel descriptions carried and now do not: OpModuleProcessed instructions, and OpExtension
instructions repeated. Exits 1 where something differs or is missing in AFTER."""
import os
import struct
import sys

OP_EXTENSION, OP_MODULE_PROCESSED = 10, 330


def instructions(path, old_format):
    data = open(path, 'rb').read()
    words = struct.unpack('<%dI' % (len(data) // 4), data)
    out, seen, at = [tuple(words[:5])], set(), 5
    while at < len(words):
        count, opcode = words[at] >> 16, words[at] & 0xffff
        instruction, at = tuple(words[at:at + max(1, count)]), at + max(1, count)
        if old_format and opcode == OP_MODULE_PROCESSED:
            continue
        if old_format and opcode == OP_EXTENSION:
            if instruction in seen:
                continue
            seen.add(instruction)
        out.append(instruction)
    return out


def main(before, after, old_format):
    counts = {'modules': [0, 0], 'twins': [0, 0]}
    bad = []
    for root, _, files in os.walk(before):
        for name in files:
            kind = 'modules' if name.endswith('.spv') else 'twins' if name.endswith('$KilnCpu.class') else None
            if kind is None:
                continue
            old = os.path.join(root, name)
            new = os.path.join(after, os.path.relpath(old, before))
            counts[kind][0] += 1
            if not os.path.exists(new):
                bad.append('missing ' + new)
            elif (instructions(old, old_format) == instructions(new, False) if kind == 'modules'
                  else open(old, 'rb').read() == open(new, 'rb').read()):
                counts[kind][1] += 1
            else:
                bad.append('differs ' + new)
    for line in bad:
        print(line)
    for kind, (total, same) in counts.items():
        print('%s: %d of %d the same' % (kind, same, total))
    return 1 if bad else 0


if __name__ == '__main__':
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    if len(args) != 2:
        sys.exit(__doc__)
    sys.exit(main(args[0], args[1], '--old-format' in sys.argv))
