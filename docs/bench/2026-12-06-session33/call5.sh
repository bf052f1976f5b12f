#!/bin/bash
# Session 33, call 5: what the driver made of the float16 GEMV: PipelineStats (registers,
# instructions... as VK_KHR_pipeline_executable_properties reports them) for the head's subgroup
# form and plain form (checks kept and settled), the GLSL twins, and the same Kiln forms with
# 16-byte chunks (v16) (run twice: the first attempt ran out of LWJGL stack for the statistics).
KILN_HEAP=8g source bench/device-call.sh
K=dev/kiln/library/GemvKernels
G=dev/kiln/bench/glsl
for v in new v16; do
  echo "== $v" >> $O/stats.txt
  timeout 60 $J -cp "$PWD/.gpu-check/$v/*:$HEAD" dev.kiln.bench.PipelineStats $K.normedProductInSubgroups.spv $K.normedProductInSubgroups.spv@settled $K.halves.spv@settled \
    $G/gemvhjava.spv $G/gemvhjava16.spv $G/gemvhjava_c1d1.spv $G/gemvh_u2r1.spv 2>&1 | grep -v JAVA_TOOL >> $O/stats.txt
done
cat $O/stats.txt
# (the H200 probe, probe33.sh, ran after the first attempt: an H100, it stopped)
