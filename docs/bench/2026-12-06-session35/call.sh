#!/bin/bash
# Session 35's call, cut to fit what device time was left: GemvTest and DeviceModelTest on this
# head (the float16 lanes decoding every element exactly without a branch, SixteenBits.half); the 1B
# decode of f9a (the previous head's lanes: normal-only decoding and a check of each chunk) / this
# head interleaved, with the random weights as they are and with 1 in 512 of them zero (zv); then the
# check on this head's pack.
source bench/device-call.sh
timeout -s QUIT -k 5 80 $J -cp "$R/.gpu/lib/*" org.junit.platform.console.ConsoleLauncher execute --details=tree --disable-banner \
  --select-class dev.kiln.library.GemvTest --select-class dev.kiln.llama.gpu.DeviceModelTest > $O/gemv-tests.txt 2>&1
grep -E "tests (successful|failed|skipped)|✘" $O/gemv-tests.txt | head -20
for v in f9a new f9a new; do
  CP="$R/.gpu/lib/*"; [ $v != new ] && CP="$PWD/.gpu-check/$v/*:$CP"
  echo "== $v 1B" >> $O/llama.txt
  timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/llama.txt
done
for v in f9a new; do
  CP="$PWD/.gpu-check/zv/*:$R/.gpu/lib/*"; [ $v != new ] && CP="$PWD/.gpu-check/$v/*:$CP"
  echo "== $v, random float16 weights with 1 in 512 zero" >> $O/llama.txt
  timeout 60 $J -Dkiln.zeroMask=511 -cp "$CP" dev.kiln.llama.Generate --random 1B --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/llama.txt
done
cat $O/llama.txt
export KILN_CHECK_TESTS_S=100 KILN_CHECK_FUZZ_S=60 KILN_CHECK_FUSION_S=40 KILN_CHECK_CORPUS_S=30
bash bench/h200-check.sh run /tmp/check 2>&1 | tee $O/summary.txt; tar -C /tmp -czf $O/check-logs.tgz check
grep -E "✘" /tmp/check/device-tests-*.txt | head -20
