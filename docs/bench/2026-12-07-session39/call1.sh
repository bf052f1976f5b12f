#!/bin/bash
# Session 39, call 1 (carry: [".gpu-check"]). .gpu-check/gc0 holds this head's jars (Gpu.float16ToFloat:
# the device's conversion where the driver keeps float16 subnormals, specialization constant 2), gc the
# library with SixteenBits.half returning Gpu.float16ToFloat, gc16 that with Tuning.GEMV_CHUNK_BYTES = 16;
# ax the llama jar whose attendSpan returns at once past the position; the pack is ba352c4's (its JRE and
# libraries; every Kiln jar comes from gc0 or a variant before it). On an H200 first issue 50's table (trimmed to
# the call), then the rest. Elsewhere: the device's float controls, HalfConversionTest and GemvTest
# through gc (the conversion path: all 65,536 float16 patterns), the 1B decode gc0/gc/gc+ax, then
# gc16/gc0/gc/gc+ax/gc16, GemvTwinBench lanes (twinGrid16g, the conversion, against twinGrid16 and the 16-byte
# GLSL twin) and the lanes' registers; the most wanted first, as the device time may end the call.
source bench/device-call.sh
G="$PWD/.gpu-check"
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
fi
timeout 30 $J -cp "$G/gc0/*:$R/.gpu/lib/*" dev.kiln.Devices 2>&1 | grep -v JAVA_TOOL | head -8 | tee $O/devices.txt
decode() { # the 1B decode with each variant named
  for v in "$@"; do
    case $v in gc0) CP="$G/gc0/*:$R/.gpu/lib/*";; gcax) CP="$G/ax/*:$G/gc/*:$G/gc0/*:$R/.gpu/lib/*";; *) CP="$G/$v/*:$G/gc0/*:$R/.gpu/lib/*";; esac
    echo "== $v 1B" >> $O/decode.txt
    timeout 45 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/decode.txt
  done
}
decode gc0 gc gcax
timeout -s QUIT -k 5 90 $J -cp "$G/gc/*:$G/gc0/*:$R/.gpu/lib/*" org.junit.platform.console.ConsoleLauncher execute --details=tree --disable-banner \
  --select-class dev.kiln.samples.semantics.HalfConversionTest --select-class dev.kiln.library.GemvTest > $O/gc-tests.txt 2>&1
echo "gc tests: $(grep -E 'tests (successful|failed)' $O/gc-tests.txt | tr -s ' ' | tr '\n' ' ')"; grep -B2 -A8 "✘" $O/gc-tests.txt | head -40
grep -q H200 $O/gpu.txt || decode gc16 gc0 gc gcax gc16
cat $O/decode.txt
grep -q H200 $O/gpu.txt || timeout 100 $J -cp "$G/gc/*:$G/gc0/*:$R/.gpu/lib/*" dev.kiln.bench.GemvTwinBench lanes 2>&1 | grep -v JAVA_TOOL | tee $O/lanes-gc.txt
L=dev/kiln/bench/GemvLanes
timeout 30 $J -cp "$G/gc0/*:$R/.gpu/lib/*" dev.kiln.bench.PipelineStats $L.twinGrid16.spv@settled $L.twinGrid16g.spv@settled \
  dev/kiln/bench/glsl/gemvhjava16.spv 2>&1 | grep -E "spv|Register|Binary" | tee $O/stats.txt
