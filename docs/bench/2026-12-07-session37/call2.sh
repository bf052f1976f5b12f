#!/bin/bash
# Session 37, call 2: the 1B decode interleaved: head / hx (the norms' and the residual's reads before
# the products) / dpa (the lanes reading four chunks at a time: session 36's deep-lanes.diff) / dh
# (dpa with hx); then GemvTwinBench kiln on this head, and with dpa and T (the twins' main loops
# marked DontUnroll) first; then the driver's internal representations (PipelineStats -Dkiln.irDir).
source bench/device-call.sh
for v in head hx dpa dh head hx dpa dh; do
  CP="$R/.gpu/lib/*"; [ $v != head ] && CP="$PWD/.gpu-check/$v/*:$CP"
  echo "== $v 1B" >> $O/llama.txt
  timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/llama.txt
done
cat $O/llama.txt
K=dev/kiln/library/GemvKernels G=dev/kiln/bench/glsl B="$PWD/.gpu-check/head/kiln-bench-0.1.0-SNAPSHOT.jar"
for v in head dpaT; do
  CP="$B:$R/.gpu/lib/*"; [ $v = dpaT ] && CP="$PWD/.gpu-check/dpa/*:$PWD/.gpu-check/T/*:$CP"
  timeout 100 $J -cp "$CP" dev.kiln.bench.GemvTwinBench kiln 2>&1 | grep -v JAVA_TOOL > $O/twins-$v.txt
  echo "== $v"; grep -E "Kiln|java twin " $O/twins-$v.txt | head -15; tail -8 $O/twins-$v.txt
done
mkdir -p /tmp/ir
timeout 60 $J -Dkiln.irDir=/tmp/ir -cp "$B:$R/.gpu/lib/*" dev.kiln.bench.PipelineStats \
  $K.normedProductInSubgroups.spv@settled $K.halves.spv@settled $G/gemvhjava.spv $G/gemvhjava16.spv $G/gemvh_u2r1.spv 2>&1 | grep -v JAVA_TOOL > $O/ir.txt
grep -c representation $O/ir.txt
tar -C /tmp -czf $O/ir.tgz ir
