#!/bin/bash
# Session 46, call 1b (carry: [".gpu-check"], call 1's pack): the GPU check of f642427 (bench/h200-check.sh run, cut
# to the call), on the machine call 1 left warm; then LibraryBench gemv (against call 1's copy rate) and the 1B decode.
source bench/device-call.sh
KILN_CHECK_TESTS_S=110 KILN_CHECK_FUZZ_S=50 KILN_CHECK_FUSION_S=40 KILN_CHECK_CORPUS_S=30 bash bench/h200-check.sh run /tmp/check 2>&1 | tee $O/check-summary.txt
tar -C /tmp -czf $O/check.tgz check
G="$PWD/.gpu-check"
L="$G/bench/*:$R/.gpu/lib/*"
timeout -s QUIT -k 5 60 $J -cp "$L" dev.kiln.bench.LibraryBench /tmp/res/gemv gemv 2>&1 | grep -E "GB/s|Exception" | tee $O/gemv.txt
timeout -s QUIT -k 5 80 $J -cp "$L" dev.kiln.llama.Generate --random 1B --steps 640 2>&1 | grep -v JAVA_TOOL | tail -4 | tee $O/llama-1B.txt
