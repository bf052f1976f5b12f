#!/bin/bash
# Session 35's call: the check on this head's pack (the float16 lanes decoding every element exactly
# without a branch, SixteenBits.half); the 1B decode of f9a (the previous head's lanes: normal-only
# decoding and a check of each chunk) / this head / v16s (this head with 16-byte chunks) interleaved,
# then f9a and this head with 1 in 512 of the random weights zero (zv); on an H200 first issue 50's
# table (1B decode and prefill, PyTorch on the same shape).
source bench/device-call.sh
export KILN_CHECK_TESTS_S=110 KILN_CHECK_FUZZ_S=70 KILN_CHECK_FUSION_S=45 KILN_CHECK_CORPUS_S=35
bash bench/h200-check.sh run /tmp/check 2>&1 | tee $O/summary.txt; tar -C /tmp -czf $O/check-logs.tgz check
grep -E "✘" /tmp/check/device-tests-*.txt | head -20
if grep -q H200 $O/gpu.txt; then
  NOW="$PWD/.gpu-check/head/kiln-bench-0.1.0-SNAPSHOT.jar:$R/.gpu/lib/*"
  echo "== H200 head 1B 384 steps with prefill" >> $O/h200.txt
  timeout 70 $J -cp "$NOW" dev.kiln.llama.Generate --random 1B --steps 384 2>&1 | grep -v JAVA_TOOL | tail -3 >> $O/h200.txt
  (cd bench && timeout 100 python3 -u torch_llama.py --random 1B --steps 640 2>&1 | grep -v -i warn | tail -4) >> $O/h200.txt
  cat $O/h200.txt
fi
for v in f9a new v16s f9a new v16s; do
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
