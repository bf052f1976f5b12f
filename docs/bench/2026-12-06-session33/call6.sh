#!/bin/bash
# Session 33, call 6: the float16 lane with its exact path out of the hot loop (cold) against this
# head (new): the driver's statistics, then the 1B decode interleaved.
source bench/device-call.sh
K=dev/kiln/library/GemvKernels
for v in new cold; do
  echo "== $v" >> $O/stats.txt
  timeout 30 $J -cp "$PWD/.gpu-check/$v/*:$HEAD" dev.kiln.bench.PipelineStats $K.normedProductInSubgroups.spv@settled $K.gatedNormedProductInSubgroups.spv@settled $K.accumulateForNormInSubgroups.spv@settled 2>&1 | grep -v JAVA_TOOL | grep -v "Local Memory" >> $O/stats.txt
done
for v in new cold new cold; do
  echo "== $v 1B" >> $O/llama.txt
  timeout 60 $J -cp "$PWD/.gpu-check/$v/*:$HEAD" dev.kiln.llama.Generate --random 1B --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/llama.txt
done
cat $O/stats.txt $O/llama.txt
