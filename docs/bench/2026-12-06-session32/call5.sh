#!/bin/bash
# Session 32, call 5: on an H200 only (else it stops at once), call 3 again: the check, ShardBench,
# the library's GEMMs and the 1B decode on this head's pack.
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/name.txt
grep -q H200 $OUT/name.txt || { echo "not an H200: nothing run"; exit 0; }
bash .gpu-check/call3.sh
