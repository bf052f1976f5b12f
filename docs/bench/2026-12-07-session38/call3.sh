#!/bin/bash
# Session 38, call 3 (an H200 only): the H200 check (bench/h200-check.sh run, this head's pack, 700
# fuzz kernels), then issue 49's table: LibraryBench (all parts) and bench/torch_library.py on the
# same shapes, in one call; on any other card it stops.
source bench/device-call.sh
grep -q H200 $O/gpu.txt || { echo "not an H200: stopping"; exit 0; }
export KILN_CHECK_TESTS_S=110 KILN_CHECK_FUZZ_S=60 KILN_CHECK_FUSION_S=40 KILN_CHECK_CORPUS_S=30
mkdir -p /tmp/check
bash bench/h200-check.sh run /tmp/check 2>&1 | tee $O/summary.txt
tar -C /tmp -czf $O/check.tgz check
mkdir -p /tmp/res
timeout -s QUIT -k 10 170 $J -cp "$HEAD" dev.kiln.bench.LibraryBench /tmp/res/lib 2>&1 | grep -v JAVA_TOOL | grep -v " n=" > $O/lib.txt
(cd bench && timeout 100 python3 torch_library.py /tmp/res/torch > /tmp/res/torch.txt 2>&1)
tar -C /tmp/res -czf $O/res.tgz .
grep -c . $O/lib.txt; tail -2 /tmp/res/torch.txt
