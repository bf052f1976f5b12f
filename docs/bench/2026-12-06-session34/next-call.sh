#!/bin/bash
# Prepared in session 34 as its call 3, which found no machine: the check on the head's pack (the subgroup forms in octets, the processor's
# two fixes), the 1B decode of b375294 (head/) against this head (the pack's jars) and v16p2 (16-byte
# chunks two a turn, each read two chunks ahead, settled) interleaved.
source bench/device-call.sh
export KILN_CHECK_TESTS_S=110 KILN_CHECK_FUZZ_S=70 KILN_CHECK_FUSION_S=45 KILN_CHECK_CORPUS_S=35
bash bench/h200-check.sh run /tmp/check 2>&1 | tee $O/summary.txt; tar -C /tmp -czf $O/check-logs.tgz check
grep -E "✘" /tmp/check/device-tests-*.txt | head -20
for v in b375294 new v16p2 b375294 new v16p2; do
  CP="$R/.gpu/lib/*"; [ $v = b375294 ] && CP="$PWD/.gpu-check/head/*:$CP"; [ $v = v16p2 ] && CP="$PWD/.gpu-check/v16p2/*:$CP"
  echo "== $v 1B" >> $O/llama.txt
  timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/llama.txt
done
cat $O/llama.txt
K=dev/kiln/library/GemvKernels
timeout 30 $J -cp "$PWD/.gpu-check/v16p2/*:$PWD/.gpu-check/head/kiln-bench-0.1.0-SNAPSHOT.jar:$R/.gpu/lib/*" dev.kiln.bench.PipelineStats $K.normedProductInSubgroups.spv@settled $K.halves.spv@settled 2>&1 | grep -E "spv|Register|Binary" | tee $O/stats.txt
