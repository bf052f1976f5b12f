#!/bin/bash
# Session 28: the H200 check (bench/h200-check.sh run) on a pack of 1ecb776's jars (700 fuzz kernels), within one device call.
export KILN_CHECK_TESTS_S=150 KILN_CHECK_FUZZ_S=100 KILN_CHECK_FUSION_S=80 KILN_CHECK_CORPUS_S=60
mkdir -p $OUT/check
bash .gpu-next/h200-check.sh run $OUT/check 2>&1 | tee $OUT/summary.txt
cd $OUT && tar czf check.tgz check && rm -rf check
