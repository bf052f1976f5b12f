#!/bin/bash
# Session 36's first call (carry: [".gpu-check"]): the pack is 7574fe0's (this head's code but the
# lanes' decode); variant jars before it: f9a (normal-only decode + chunk check), hy (hybrid.diff),
# xa: x8 (SixteenBits.half in about 8 operations: OR for the bias, one fused multiply-add, a
# compare) with attendSpan's span loops of fixed counts and its dot products four reads a turn.
# dpa: xa with the float16 lanes reading four chunks at a time (two of each row for the gated pair;
# docs/bench/2026-12-06-session36/deep-lanes.diff); d16a: dpa with 16-byte chunks (SHORT_CHUNK 8).
# First dpa's correctness on this GPU (GemvTest + DeviceModelTest), then the 1B decode interleaved
# with and without zeros; on an H200 the positions of issue 50 (128-640) and PyTorch beside it.
source bench/device-call.sh
VARIANTS="new xa dpa d16a"; if grep -q H200 $O/gpu.txt; then STEPS=640; else STEPS=256; fi
for round in 1; do
  for z in 0 512; do
    for v in $VARIANTS; do
      [ $v = f9a ] && [ $z != 0 ] && continue
      CP="$R/.gpu/lib/*"; [ $v != new ] && CP="$PWD/.gpu-check/$v/*:$CP"
      echo "== $v 1B, --zeros $z" >> $O/llama.txt
      timeout 70 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --zeros $z --steps $STEPS --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/llama.txt
    done
  done
  grep -q H200 $O/gpu.txt && break
done
cat $O/llama.txt
timeout -s QUIT -k 5 70 $J -cp "$PWD/.gpu-check/dpa/*:$R/.gpu/lib/*" org.junit.platform.console.ConsoleLauncher execute --details=tree --disable-banner \
  --select-class dev.kiln.library.GemvTest --select-class dev.kiln.llama.gpu.DeviceModelTest > $O/dpa-tests.txt 2>&1
grep -E "tests (successful|failed|skipped)|✘" $O/dpa-tests.txt | head -20
timeout -s QUIT -k 5 50 $J -cp "$PWD/.gpu-check/d16a/*:$R/.gpu/lib/*" org.junit.platform.console.ConsoleLauncher execute --details=tree --disable-banner \
  --select-class dev.kiln.library.GemvTest > $O/d16a-tests.txt 2>&1
grep -E "tests (successful|failed|skipped)|✘" $O/d16a-tests.txt | head -20
if grep -q H200 $O/gpu.txt; then
  (cd bench && timeout 150 python3 -u torch_llama.py --random 1B --steps 640 2>&1 | grep -v -i warn | tail -6) | tee $O/torch-llama.txt
  for v in new xa dpa d16a; do
    CP="$R/.gpu/lib/*"; [ $v != new ] && CP="$PWD/.gpu-check/$v/*:$CP"
    echo "== $v 3B" >> $O/llama3b.txt
    timeout 80 $J -cp "$CP" dev.kiln.llama.Generate --random 3B --zeros 512 --steps 640 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/llama3b.txt
  done
  cat $O/llama3b.txt
fi
K=dev/kiln/library/GemvKernels
for v in new xa dpa d16a; do
  CP="$R/.gpu/lib/*:$PWD/.gpu-check/head/kiln-bench-0.1.0-SNAPSHOT.jar"; [ $v != new ] && CP="$PWD/.gpu-check/$v/*:$CP"
  echo "== $v" >> $O/stats.txt
  timeout 60 $J -Xss8m -cp "$CP" dev.kiln.bench.PipelineStats $K.normedProductInSubgroups.spv@settled $K.gatedNormedProductInSubgroups.spv@settled $K.accumulateForNormInSubgroups.spv@settled 2>&1 | grep -v JAVA_TOOL >> $O/stats.txt
done
grep -E "==|egister|Binary" $O/stats.txt | head -40
# Then, on the warm machine (the device tool's calls, each starting with source bench/device-call.sh):
#   the 3B decode new / xa / new / xa and the 1B xa / new, --zeros 512, --steps 256 (call/llama-2.txt);
#   KILN_CHECK_TESTS_S=60 KILN_CHECK_FUZZ_S=60 KILN_CHECK_FUSION_S=40 KILN_CHECK_CORPUS_S=30
#     bash bench/h200-check.sh run /tmp/check (call/check-summary.txt);
#   GemvTest + DeviceModelTest with .gpu-check/xa first on the class path (call/xa-tests.txt).
