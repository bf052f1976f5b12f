#!/bin/bash
# Session 37, call 4: nb (the decode's subgroup forms one kernel per element type, no run-time
# float16/bfloat16 branch in the lanes) against this head: the 1B decode interleaved, the 3B once
# each, the drivers' statistics, then GemvTest (nb's) + DeviceModelTest with nb first.
source bench/device-call.sh
for v in head nb head nb; do
  CP="$R/.gpu/lib/*"; [ $v != head ] && CP="$PWD/.gpu-check/$v/*:$CP"
  echo "== $v 1B" >> $O/llama.txt
  timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/llama.txt
done
cat $O/llama.txt
K=dev/kiln/library/GemvKernels
timeout 30 $J -cp "$PWD/.gpu-check/nb/*:$PWD/.gpu-check/head/kiln-bench-0.1.0-SNAPSHOT.jar:$R/.gpu/lib/*" dev.kiln.bench.PipelineStats $K.normedProductInSubgroups.spv@settled $K.gatedNormedProductInSubgroups.spv@settled $K.accumulateForNormInSubgroups.spv@settled 2>&1 | grep -E "spv|Register|Binary" | tee $O/stats.txt
timeout -s QUIT -k 5 60 $J -cp "$PWD/.gpu-check/nb/*:$R/.gpu/lib/*" org.junit.platform.console.ConsoleLauncher execute --details=tree --disable-banner \
  --select-class dev.kiln.library.GemvTest --select-class dev.kiln.llama.gpu.DeviceModelTest > $O/nb-tests.txt 2>&1
echo "nb: $(grep -E 'tests (successful|failed)' $O/nb-tests.txt | tr -s ' ' | tr '\n' ' ')"; grep "✘" $O/nb-tests.txt | head
for v in head nb; do
  CP="$R/.gpu/lib/*"; [ $v != head ] && CP="$PWD/.gpu-check/$v/*:$CP"
  echo "== $v 3B" >> $O/llama3b.txt
  timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random 3B --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/llama3b.txt
done
cat $O/llama3b.txt
