#!/bin/bash
# Session 40, call 4 (an H100; carry: [".gpu-check"], this head's pack with llama jars before it).
# Call 3's v2 (the cache's write after the staging loop, the loads still inside its branches) was
# slower (1B attention 0.237 against 0.225 ms). v4: the staging loads unconditional (a row past the
# position reads the position's), the position's key and value computed once an invocation, the
# write after the loop, the queries' loads unconditional too, and attendCombine in one pass; v5: v4
# with SPAN 16; v3 again (call 3's v2 with SPAN 16). 1B twice, then 3B and 8B.
source bench/device-call.sh
grep -q H200 $O/gpu.txt && exec bash docs/bench/2026-12-07-session40/call1.sh # an H200: issue 50's table first
G="$PWD/.gpu-check"
one() { # variant, model
  CP="$R/.gpu/lib/*"; [ $1 = head ] || CP="$G/$1/*:$CP"
  echo "== $1 $2"
  timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random $2 --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2
}
{
for round in 1 2; do for v in head v4 v5 v3; do one $v 1B; done; done
for m in 3B 8B; do for v in head v4 v5 v3; do one $v $m; done; done
} 2>&1 | tee $O/decode.txt
