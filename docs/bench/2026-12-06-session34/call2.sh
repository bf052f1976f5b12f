#!/bin/bash
# Session 34, call 2: with the processor's two fixes (a counter bounded by a condition that may wrap,
# c <= n - 8, rises at a launch; a copy a launch settled records no fault): hB (b375294's kernels),
# v32 (the subgroup forms given rows' length in octets: their reads of the matrix now settle), v16
# (v32 with 16-byte chunks, one a turn); head = b375294 as built. Bits (GemvBits), the driver's
# statistics, the twins (v16 must give the 16-byte twin's bits), the 1B decode interleaved.
source bench/device-call.sh
cp() { [ $1 = head ] && echo "$HEAD" || echo "$PWD/.gpu-check/$1/*:$HEAD"; }
K=dev/kiln/library/GemvKernels
for v in v32 v16 hB; do
  echo "== $v" >> $O/stats.txt
  timeout 30 $J -cp "$(cp $v)" dev.kiln.bench.PipelineStats $K.normedProductInSubgroups.spv@settled $K.gatedNormedProductInSubgroups.spv@settled $K.accumulateForNormInSubgroups.spv@settled $K.halves.spv@settled 2>&1 | grep -E "spv|Register|Binary" >> $O/stats.txt
done
for v in head hB v32 v16 head hB v32 v16; do
  echo "== $v 1B" >> $O/llama.txt
  timeout 60 $J -cp "$(cp $v)" dev.kiln.llama.Generate --random 1B --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/llama.txt
done
grep -v "^  each" $O/llama.txt; grep "^  each" $O/llama.txt | sed 's/.*GEMV/GEMV/'
# the check on this tree's pack (v16 and the processor's fixes)
export KILN_CHECK_TESTS_S=110 KILN_CHECK_FUZZ_S=70 KILN_CHECK_FUSION_S=45 KILN_CHECK_CORPUS_S=35
bash bench/h200-check.sh run /tmp/check 2>&1 | tee $O/summary.txt; tar -C /tmp -czf $O/check-logs.tgz check
grep -E "✘" /tmp/check/device-tests-*.txt | head -20
