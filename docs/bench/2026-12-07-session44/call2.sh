#!/bin/bash
# Session 44, call 2 (carry: [".gpu-check"] holding bench/h200-check.sh's pack of this session's head, 700 fuzz
# kernels): the GPU check (the samples', library's and llama module's device tests, the fuzz, the corpora,
# random fusion) cut to the time left; then Gemm.floats at 4096 / 8192 and the few-block shapes from the pack.
source bench/device-call.sh
KILN_CHECK_TESTS_S=${TESTS_S:-240} KILN_CHECK_FUZZ_S=60 KILN_CHECK_FUSION_S=30 KILN_CHECK_CORPUS_S=30 \
  bash bench/h200-check.sh run /tmp/check 2>&1 | tee $O/check-summary.txt
(cd /tmp/check && tar czf $O/check-logs.tgz . 2>/dev/null)
