#!/bin/bash
# Session 42, call 6: call5.sh cut again to the device time left after seven starts that found no
# machine (carry: [".gpu-check"]: the pack of e8b0876 with 700 fuzz kernels; bench/ this head's bench
# jar; base/ the library and llama jars of d5416f6). The driver's registers for the GEMM kernels;
# LibraryBench sgemm at every shape (the plain layout); the 1B decode before and after; then of
# bench/h200-check.sh's run only the differential fuzz (700 kernels, four processes) and the corpora.
source bench/device-call.sh
G="$PWD/.gpu-check"
N="$G/bench/*:$R/.gpu/lib/*"
B="$G/base/*:$G/bench/*:$R/.gpu/lib/*"
for k in floatsInQuadsScaled floatsScaled floatsInQuads floats halves; do S="$S dev/kiln/library/GemmKernels.$k.spv"; done
$J -cp "$N" dev.kiln.bench.PipelineStats $S dev/kiln/bench/RegisterTiles.prefetchedUnchecked.spv 2>&1 | grep -E "spv|Register" | tee $O/stats.txt
timeout -s QUIT -k 5 80 $J -Dkiln.bench.sgemmPlain=true -cp "$N" dev.kiln.bench.LibraryBench /tmp/res/n sgemm 2>&1 | grep -E "GFLOP/s|Exception" | tee $O/sgemm.txt
for v in B N; do
  echo "== 1B $v" >> $O/decode.txt
  timeout 40 $J -cp "${!v}" dev.kiln.llama.Generate --random 1B --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/decode.txt
done
cat $O/decode.txt
read -r kernels seed < "$R/fuzz/run"
F=(java -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM -XX:ErrorFile="$O/hs_err_%p.log")
for part in 0 1 2 3; do
  timeout -s QUIT -k 10 100 "${F[@]}" -Dkiln.fuzzDir="$R/fuzz" -Dkiln.fuzzKernels="$kernels" -Dkiln.fuzzSeed="$seed" \
    -Dkiln.fuzzRange="$((part * kernels / 4))-$(((part + 1) * kernels / 4 - 1))" -cp "$R/.gpu/lib/*" \
    org.junit.platform.console.ConsoleLauncher execute --details=summary --disable-banner \
    --select-class dev.kiln.samples.fuzz.KernelFuzzTest > "$O/fuzz-$part.txt" 2>&1 &
done
wait
for part in 0 1 2 3; do echo "fuzz part $part: $(grep -E '^kernel fuzzer' "$O/fuzz-$part.txt" || echo "no summary")"; done | tee $O/check-summary.txt
timeout -s QUIT -k 10 60 "${F[@]}" -Dkiln.corpusDir="$R/corpus" -cp "$R/.gpu/lib/*" org.junit.platform.console.ConsoleLauncher \
  execute --details=summary --disable-banner --select-class dev.kiln.samples.corpus.HeldOutCorpusTest > "$O/corpus.txt" 2>&1
echo "corpora: $(grep -E 'corpus on|tests (successful|failed)' "$O/corpus.txt" | tr -s ' ' | tr '\n' ' ')" | tee -a $O/check-summary.txt
