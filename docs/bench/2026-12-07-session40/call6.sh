#!/bin/bash
# Session 40, call 6 (an H100; carry: [".gpu-check"]): the decode's GEMV lanes reading x ahead with
# the weights. v5 is this head's llama jar (call 5's v5, landed) with its tests; g1 the library with
# each lane's next chunk of x read with its next chunk of weights (the x chunk was read in the turn
# that adds it, a wait on memory each turn); g2 g1 with two chunks read ahead. Same bits (the sums'
# order unchanged). 1B twice, then 3B and 8B; then GemvTest through g2 and the llama module's device
# tests (DeviceModelTest, AttentionCombineTest) through this head's kernels.
source bench/device-call.sh
grep -q H200 $O/gpu.txt && exec bash docs/bench/2026-12-07-session40/call1.sh # an H200: issue 50's table first
G="$PWD/.gpu-check"
one() { # variant, model
  CP="$G/v5/*:$R/.gpu/lib/*"; [ $1 = head ] || CP="$G/$1/*:$CP"
  echo "== $1 $2"
  timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random $2 --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2
}
{
for round in 1 2; do for v in head g1 g2; do one $v 1B; done; done
for m in 3B 8B; do for v in head g1 g2; do one $v $m; done; done
} 2>&1 | tee $O/decode.txt
timeout -s QUIT -k 5 100 $J -cp "$G/g2/*:$G/v5/*:$R/.gpu/lib/*" org.junit.platform.console.ConsoleLauncher execute --details=tree --disable-banner \
  --select-class dev.kiln.library.GemvTest --select-class dev.kiln.llama.gpu.DeviceModelTest --select-class dev.kiln.llama.gpu.AttentionCombineTest > $O/tests.txt 2>&1
echo "tests: $(grep -E 'tests (successful|failed|aborted)' $O/tests.txt | tr -s ' ' | tr '\n' ' ')"; grep -B2 -A8 "✘" $O/tests.txt | head -40
