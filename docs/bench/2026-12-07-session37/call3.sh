#!/bin/bash
# Session 37, call 3: GemvTwinBench lanes (Kiln's Gemv.halves, its 32-byte GLSL twin, and the twin
# written in Kiln: GemvLanes.twin / twinGrid / twinKinds), twice; the drivers' statistics of them.
source bench/device-call.sh
B="$PWD/.gpu-check/head/kiln-bench-0.1.0-SNAPSHOT.jar"
for round in 1 2; do
  timeout 100 $J -cp "$B:$R/.gpu/lib/*" dev.kiln.bench.GemvTwinBench lanes 2>&1 | grep -v JAVA_TOOL > $O/lanes-$round.txt
  echo "== round $round"; cat $O/lanes-$round.txt | grep -v "^  java twin 16"
done
L=dev/kiln/bench/GemvLanes K=dev/kiln/library/GemvKernels
timeout 60 $J -cp "$B:$R/.gpu/lib/*" dev.kiln.bench.PipelineStats $L.twin.spv@settled $L.twinGrid.spv@settled $L.twinKinds.spv@settled \
  $K.halves.spv@settled dev/kiln/bench/glsl/gemvhjava.spv 2>&1 | grep -E "spv|Register|Binary" | tee $O/stats.txt
