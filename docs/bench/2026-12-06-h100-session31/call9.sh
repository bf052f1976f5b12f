#!/bin/bash
# Session 31, call 9: on an H200 only (else it stops at once): the check on this head's pack, the library's GEMMs
# and sort, the 1B decode and prefill.
O=$OUT; mkdir -p $O /tmp/check /tmp/resn
nvidia-smi --query-gpu=name --format=csv,noheader | tee $O/name.txt
grep -q H200 $O/name.txt || { echo "not an H200: nothing run"; exit 0; }
export KILN_CHECK_TESTS_S=100 KILN_CHECK_FUZZ_S=60 KILN_CHECK_FUSION_S=40 KILN_CHECK_CORPUS_S=30
bash bench/h200-check.sh run /tmp/check 2>&1 | tee $O/summary.txt; tar -C /tmp -czf $O/check.tgz check
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz; }
source $R/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx40g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
HEAD="$PWD/.gpu-check/head/*:$R/.gpu/lib/*"
timeout -s QUIT -k 5 85 $J -cp "$HEAD" dev.kiln.bench.LibraryBench /tmp/resn/lib-gemm gemm 2>&1 | grep -v JAVA_TOOL > $O/lib.txt
timeout -s QUIT -k 5 45 $J -cp "$HEAD" dev.kiln.bench.LibraryBench /tmp/resn/lib-sort sort 2>&1 | grep -v JAVA_TOOL >> $O/lib.txt
timeout 60 $J -cp "$HEAD" dev.kiln.llama.Generate --random 1B --steps 384 2>&1 | grep -v JAVA_TOOL | tail -3 | tee $O/llama.txt
tar -C /tmp/resn -czf $O/res.tgz .
grep -vE "n=" $O/lib.txt | grep -E "f16 |sort" | head -12
