#!/bin/bash
# Session 29, call 3: the H200 check (bench/h200-check.sh run) on this head's pack (700 fuzz kernels).
export KILN_CHECK_TESTS_S=${T:-120} KILN_CHECK_FUZZ_S=80 KILN_CHECK_FUSION_S=60 KILN_CHECK_CORPUS_S=45
mkdir -p /tmp/check
bash bench/h200-check.sh run /tmp/check 2>&1 | tee $OUT/summary.txt
tar -C /tmp -czf $OUT/check.tgz check
