#!/bin/bash
# Session 37, call 1 (carry [".gpu-check"]): the pack of e675add (HEAD); variants put only SPIR-V
# before it: O (every library and llama module through spirv-opt -O, SPV_KHR_float_controls hidden
# from its allowlist), U (the same with every loop of a known count unrolled whole).
source bench/device-call.sh
if grep -q H200 $O/gpu.txt; then STEPS=640; else STEPS=256; fi
for round in 1 2; do
  for v in head O U; do
    CP="$R/.gpu/lib/*"; [ $v != head ] && CP="$PWD/.gpu-check/$v/*:$CP"
    echo "== $v 1B" >> $O/llama.txt
    timeout 70 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --zeros 512 --steps $STEPS --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/llama.txt
  done
done
cat $O/llama.txt
K=dev/kiln/library/GemvKernels
for v in head O U; do
  CP="$R/.gpu/lib/*:$PWD/.gpu-check/head/kiln-bench-0.1.0-SNAPSHOT.jar"; [ $v != head ] && CP="$PWD/.gpu-check/$v/*:$CP"
  echo "== $v" >> $O/stats.txt
  timeout 40 $J -Xss8m -cp "$CP" dev.kiln.bench.PipelineStats $K.normedProductInSubgroups.spv@settled $K.gatedNormedProductInSubgroups.spv@settled $K.accumulateForNormInSubgroups.spv@settled dev/kiln/llama/gpu/LlamaKernels.attendSpan.spv@settled 2>&1 | grep -v JAVA_TOOL >> $O/stats.txt
done
grep -E "==|spv|egister|Binary" $O/stats.txt | head -60
for v in O U; do
  timeout -s QUIT -k 5 60 $J -cp "$PWD/.gpu-check/$v/*:$R/.gpu/lib/*" org.junit.platform.console.ConsoleLauncher execute --details=tree --disable-banner \
    --select-class dev.kiln.library.GemvTest --select-class dev.kiln.llama.gpu.DeviceModelTest > $O/$v-tests.txt 2>&1
  echo "$v: $(grep -E 'tests (successful|failed)' $O/$v-tests.txt | tr -s ' ' | tr '\n' ' ')"
done
