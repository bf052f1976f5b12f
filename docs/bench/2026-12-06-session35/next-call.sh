#!/bin/bash
# Prepared in session 35 for the next device call (carry: [".gpu-check"]). Before it, here:
#   - the pack of the head: KILN_CHECK_KERNELS=700 bash bench/h200-check.sh pack
#   - .gpu-check/f9a/gemv.jar: the Gemv* and SixteenBits* classes of f9a4203's library (the lanes
#     before session 35: normal-only decoding, a check of each chunk, the slow path);
#   - .gpu-check/hy/gemv.jar: the same classes with hybrid.diff applied (the normal-only decoding
#     where a chunk is all normal, SixteenBits.half in place where it is not: no slow path, and the
#     old speed hoped for on weights without zeros); GemvTest green on the CPU and lavapipe;
# Then: what session 35's call did not reach (the fuzz, the random fusion groups and the corpora of
# the check), and the 1B decode of f9a / head / hybrid with and without zeros, interleaved.
source bench/device-call.sh
timeout -s QUIT -k 5 80 $J -cp "$PWD/.gpu-check/hy/*:$R/.gpu/lib/*" org.junit.platform.console.ConsoleLauncher execute --details=tree --disable-banner \
  --select-class dev.kiln.library.GemvTest --select-class dev.kiln.llama.gpu.DeviceModelTest > $O/hy-tests.txt 2>&1
grep -E "tests (successful|failed|skipped)|✘" $O/hy-tests.txt | head -20
for z in 0 512 0 512; do
  for v in f9a new hy; do
    CP="$R/.gpu/lib/*"; [ $v != new ] && CP="$PWD/.gpu-check/$v/*:$CP"
    echo "== $v 1B, --zeros $z" >> $O/llama.txt
    timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --zeros $z --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/llama.txt
  done
done
cat $O/llama.txt
export KILN_CHECK_TESTS_S=100 KILN_CHECK_FUZZ_S=60 KILN_CHECK_FUSION_S=40 KILN_CHECK_CORPUS_S=30
bash bench/h200-check.sh run /tmp/check 2>&1 | tee $O/summary.txt; tar -C /tmp -czf $O/check-logs.tgz check
