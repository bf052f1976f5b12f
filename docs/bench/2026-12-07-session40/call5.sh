#!/bin/bash
# Session 40, call 5 (an H100; carry: [".gpu-check"], this head's pack with llama jars before it).
# Call 4's v5 (staging loads unconditional, attendCombine in one pass, SPAN 16) was the fastest:
# 1B 659 -> 681 tokens/s, 3B 295 -> 311, 8B 157 -> 162. v6: v4 with SPAN 8; v7: v5 with each score
# summed in four chains (every fourth element, then the chains), where one chain took headDim
# dependent multiply-adds. 1B twice, then 3B and 8B.
source bench/device-call.sh
grep -q H200 $O/gpu.txt && exec bash docs/bench/2026-12-07-session40/call1.sh # an H200: issue 50's table first
G="$PWD/.gpu-check"
one() { # variant, model
  CP="$R/.gpu/lib/*"; [ $1 = head ] || CP="$G/$1/*:$CP"
  echo "== $1 $2"
  timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random $2 --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2
}
{
for round in 1 2; do for v in head v5 v6 v7; do one $v 1B; done; done
for m in 3B 8B; do for v in head v5 v6 v7; do one $v $m; done; done
} 2>&1 | tee $O/decode.txt
