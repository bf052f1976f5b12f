#!/bin/bash
# Session 44, call 2 (carry: [".gpu-check"], right after call 1 on the same machine): warm.diff's llama jar
# (warm/) before split/ and the pack. The 1B decode with the L2 warmed during attention: -1 (none), the
# output projection alone (0), and it with 16, 32 MB of gate/up; 3B with -1 and 16. Tokens/s, two rounds.
source bench/device-call.sh
G="$PWD/.gpu-check"
cp="$G/warm/*:$G/split/*:$G/bench/*:$R/.gpu/lib/*"
for round in 1 2; do
  for w in -1 0 16 32; do
    timeout 50 $J -Dkiln.warm=$w -cp "$cp" dev.kiln.llama.Generate --random 1B --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 | sed "s/^/1B warm $w: /" | tee -a $O/decode.txt
  done
done
for w in -1 16; do
  timeout 60 $J -Dkiln.warm=$w -cp "$cp" dev.kiln.llama.Generate --random 3B --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 | sed "s/^/3B warm $w: /" | tee -a $O/decode.txt
done
