#!/bin/bash
# Session 33, call 1: the decode's float16 GEMV shapes, Kiln against GLSL twins (GemvTwinBench).
source bench/device-call.sh
timeout -s QUIT -k 5 240 $J -cp "$HEAD" dev.kiln.bench.GemvTwinBench 2>&1 | grep -v JAVA_TOOL | tee $O/twins.txt
