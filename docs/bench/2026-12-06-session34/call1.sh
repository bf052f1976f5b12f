#!/bin/bash
# Session 34, call 1: GEMV lane variants against this head (b375294's library in .gpu-check/head):
# vA (the subgroup forms take rows' length in octets: their matrix reads settle at launch), vAB (vA
# with 16-byte chunks, two a turn; the gated pair one of each row a turn), vA1 (vA with 16-byte
# chunks, one a turn). Bits against the CPU backend (GemvBits), the twins (GemvTwinBench kiln: the
# 16-byte twin must give vAB's and vA1's bits), the driver's statistics, the 1B decode interleaved.
source bench/device-call.sh
cp() { [ $1 = head ] && echo "$HEAD" || echo "$PWD/.gpu-check/$1/*:$HEAD"; }
K=dev/kiln/library/GemvKernels
for v in head vA vAB vA1; do
  echo "== $v" | tee -a $O/bits.txt >> $O/stats.txt
  timeout 60 $J -cp "$(cp $v)" dev.kiln.bench.GemvBits 2>&1 | grep -v JAVA_TOOL >> $O/bits.txt
  timeout 30 $J -cp "$(cp $v)" dev.kiln.bench.PipelineStats $K.normedProductInSubgroups.spv@settled $K.gatedNormedProductInSubgroups.spv@settled $K.accumulateForNormInSubgroups.spv@settled $K.halves.spv@settled 2>&1 | grep -v JAVA_TOOL | grep -v "Local Memory" >> $O/stats.txt
done
for v in head vAB vA1; do
  timeout -s QUIT -k 5 100 $J -cp "$(cp $v)" dev.kiln.bench.GemvTwinBench kiln 2>&1 | grep -v JAVA_TOOL > $O/twins-$v.txt
done
for v in head vA vAB vA1 head vA vAB vA1; do
  echo "== $v 1B" >> $O/llama.txt
  timeout 60 $J -cp "$(cp $v)" dev.kiln.llama.Generate --random 1B --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/llama.txt
done
grep -E "DIFFER|BEYOND" $O/bits.txt | head; grep -c "same bits" $O/bits.txt
for v in head vAB vA1; do echo "== $v"; tail -9 $O/twins-$v.txt | grep -v "^ "; grep "DIFFER\|same" $O/twins-$v.txt | head -3; done
cat $O/llama.txt
