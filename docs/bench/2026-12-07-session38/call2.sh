#!/bin/bash
# Session 38, call 2. On an H200: issue 50's table (Kiln 1B/3B/8B at positions 128-639, PyTorch eager,
# CUDA graph and torch.compile max-autotune-no-cudagraphs + graph on the 1B, eager and graph on 3B/8B). On any other card:
# GemvTwinBench lanes with hk first (.gpu-check/hk: GemvLanes compiled by a processor that lowers
# Float.float16ToFloat to GLSL.std.450 UnpackHalf2x16, the GPU's conversion; a measurement only):
# twinGrid16j (the GPU's conversion) against twinGrid16 (the library's decoding) and the 16-byte GLSL twin,
# with sg's library first (.gpu-check/sg: Gemv.halves folding in the subgroup, its "Kiln" line);
# then the 1B decode with the library's decoding (SixteenBits.half) replaced by Float.float16ToFloat
# under that processor, 32-byte (hk32) and 16-byte chunks (hk16), interleaved with this head, and
# GemvTest with hk32's kernels (all 65,536 float16 patterns through the GPU's conversion).
source bench/device-call.sh
if grep -q H200 $O/gpu.txt; then # issue 50's table, trimmed to this session's device time
  for m in 1B 3B 8B; do
    echo "== Kiln $m" >> $O/llama.txt
    timeout 70 $J -cp "$R/.gpu/lib/*" dev.kiln.llama.Generate --random $m --steps 640 2>&1 | grep -v JAVA_TOOL | tail -4 >> $O/llama.txt
  done
  cat $O/llama.txt
  (cd bench && timeout 200 python3 -u torch_llama.py --random 1B --steps 640 --compile max-autotune-no-cudagraphs 2>&1 | grep -v -i warn | tail -6) | tee $O/torch-1B.txt
  for m in 3B 8B; do
    (cd bench && timeout 45 python3 -u torch_llama.py --random $m --steps 640 2>&1 | grep -v -i warn | tail -4) | tee $O/torch-$m.txt
  done
  exit 0
fi
B="$PWD/.gpu-check/head/kiln-bench-0.1.0-SNAPSHOT.jar"
timeout 90 $J -cp "$PWD/.gpu-check/hk/*:$PWD/.gpu-check/sg/*:$B:$R/.gpu/lib/*" dev.kiln.bench.GemvTwinBench lanes 2>&1 | grep -v JAVA_TOOL | tee $O/lanes-hk.txt
L=dev/kiln/bench/GemvLanes
timeout 30 $J -cp "$PWD/.gpu-check/hk/*:$B:$R/.gpu/lib/*" dev.kiln.bench.PipelineStats $L.twinGrid16.spv@settled $L.twinGrid16j.spv@settled dev/kiln/bench/glsl/gemvhjava16.spv 2>&1 | grep -E "spv|Register|Binary" | tee $O/stats.txt
for v in head hk32 hk16 head hk32 hk16; do
  CP="$R/.gpu/lib/*"; [ $v != head ] && CP="$PWD/.gpu-check/$v/*:$CP"
  echo "== $v 1B" >> $O/llama.txt
  timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/llama.txt
done
cat $O/llama.txt
timeout -s QUIT -k 5 60 $J -cp "$PWD/.gpu-check/hk32/*:$R/.gpu/lib/*" org.junit.platform.console.ConsoleLauncher execute --details=tree --disable-banner \
  --select-class dev.kiln.library.GemvTest > $O/hk32-tests.txt 2>&1
echo "hk32 GemvTest: $(grep -E 'tests (successful|failed)' $O/hk32-tests.txt | tr -s ' ' | tr '\n' ' ')"; grep -B2 -A6 "✘" $O/hk32-tests.txt | head -40
