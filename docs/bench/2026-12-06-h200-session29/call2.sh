#!/bin/bash
# Session 29, call 2: the H200 check (bench/h200-check.sh run, this head's pack, 700 fuzz kernels),
# then the H200 table of issue 49: the library (LibraryBench, all parts) and PyTorch
# (bench/torch_library.py) on the same shapes, in one call.
export KILN_CHECK_TESTS_S=100 KILN_CHECK_FUZZ_S=60 KILN_CHECK_FUSION_S=40 KILN_CHECK_CORPUS_S=30
mkdir -p /tmp/check
bash bench/h200-check.sh run /tmp/check 2>&1 | tee $OUT/summary.txt
tar -C /tmp -czf $OUT/check.tgz check
LIBTIME=${LIBTIME:-190} TORCHTIME=${TORCHTIME:-100} bash .gpu-check/call2-table.sh  # perf2.sh on the day
