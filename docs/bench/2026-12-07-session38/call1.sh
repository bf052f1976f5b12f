#!/bin/bash
# Session 38, call 1. On an H200: issue 50's table (this head's pack, ba352c4): Kiln 1B/3B/8B decode
# at positions 128-639 with the 512-token prefill, PyTorch eager / CUDA graph / torch.compile (default,
# max-autotune-no-cudagraphs) on the 1B, eager / graph on 3B and 8B. On any other card: this head's
# subgroup kernels (one per element type) against e675add's library (.gpu-check/base: its Gemv classes)
# and against tw (.gpu-check/tw: the lanes' loops over whole chunks only, as the GLSL twin's, the
# partial chunk found after it) and t16 (tw with Tuning.GEMV_CHUNK_BYTES 16: another order), the 1B
# decode interleaved, and GemvTwinBench lanes (Gemv.halves against its twins, and the 16-byte GLSL
# twin against GemvLanes.twinGrid16) for each.
source bench/device-call.sh
if grep -q H200 $O/gpu.txt; then
  for m in 1B 3B 8B; do
    echo "== Kiln $m" >> $O/llama.txt
    timeout 80 $J -cp "$R/.gpu/lib/*" dev.kiln.llama.Generate --random $m --steps 640 2>&1 | grep -v JAVA_TOOL | tail -4 >> $O/llama.txt
  done
  cat $O/llama.txt
  (cd bench && timeout 280 python3 -u torch_llama.py --random 1B --steps 640 --compile default,max-autotune-no-cudagraphs 2>&1 | grep -v -i warn | tail -8) | tee $O/torch-1B.txt
  for m in 3B 8B; do
    (cd bench && timeout 60 python3 -u torch_llama.py --random $m --steps 640 2>&1 | grep -v -i warn | tail -5) | tee $O/torch-$m.txt
  done
  exit 0
fi
for v in base head tw t16 base head tw t16; do
  CP="$R/.gpu/lib/*"; [ $v != head ] && CP="$PWD/.gpu-check/$v/*:$CP"
  echo "== $v 1B" >> $O/llama.txt
  timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/llama.txt
done
cat $O/llama.txt
B="$PWD/.gpu-check/head/kiln-bench-0.1.0-SNAPSHOT.jar"
for v in head tw t16; do
  echo "== lanes $v"; timeout 80 $J -cp "$PWD/.gpu-check/$v/*:$B:$R/.gpu/lib/*" dev.kiln.bench.GemvTwinBench lanes 2>&1 | grep -v JAVA_TOOL | tee $O/lanes-$v.txt
done
K=dev/kiln/library/GemvKernels
for v in head tw t16; do
  echo "== stats $v"; timeout 30 $J -cp "$PWD/.gpu-check/$v/*:$B:$R/.gpu/lib/*" dev.kiln.bench.PipelineStats $K.normedProductInSubgroups.spv@settled \
    $K.gatedNormedProductInSubgroups.spv@settled $K.accumulateForNormInSubgroups.spv@settled $K.halves.spv@settled 2>&1 | grep -E "spv|Register|Binary" | tee $O/stats-$v.txt
done
