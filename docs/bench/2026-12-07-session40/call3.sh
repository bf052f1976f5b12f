#!/bin/bash
# Session 40, call 3 (an H100; carry: [".gpu-check"], this head's pack with llama jars before it).
# Call 2 found attendSpan at 9.5 µs a layer (1B) and 14.7 (3B) alone, growing with its staging loop's
# turns (8 and 16): the cache's write inside that loop (a store to the buffer the later turns load
# from) keeps the driver from issuing their loads together. v2: the write after the loop, and
# attendCombine in one pass (call 2's v1); v3: v2 with SPAN 16. 1B twice, then 3B and 8B.
source bench/device-call.sh
grep -q H200 $O/gpu.txt && exec bash docs/bench/2026-12-07-session40/call1.sh # an H200: issue 50's table first
G="$PWD/.gpu-check"
one() { # variant, model
  CP="$R/.gpu/lib/*"; [ $1 = head ] || CP="$G/$1/*:$CP"
  echo "== $1 $2"
  timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random $2 --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2
}
{
for round in 1 2; do for v in head v2 v3; do one $v 1B; done; done
for m in 3B 8B; do for v in head v2 v3; do one $v $m; done; done
} 2>&1 | tee $O/decode.txt
