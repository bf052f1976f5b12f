#!/bin/bash
# Prepared in session 30 for the next H200: the check on this head's pack (rebuild it first:
# KILN_CHECK_KERNELS=700 bash bench/h200-check.sh pack; copy bench's jar into .gpu-check/head/),
# then the library's GEMMs and sort with this head and PyTorch's GEMMs and sort, one after the other.
export KILN_CHECK_TESTS_S=100 KILN_CHECK_FUZZ_S=60 KILN_CHECK_FUSION_S=40 KILN_CHECK_CORPUS_S=30
O=$OUT; mkdir -p $O /tmp/check /tmp/resn
nvidia-smi --query-gpu=name --format=csv,noheader | tee $O/name.txt
bash bench/h200-check.sh run /tmp/check 2>&1 | tee $O/summary.txt; tar -C /tmp -czf $O/check.tgz check
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz; }
source $R/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx40g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
BASE="$PWD/.gpu-check/head/*:$R/.gpu/lib/*"
timeout -s QUIT -k 5 85 $J -cp "$BASE" dev.kiln.bench.LibraryBench /tmp/resn/lib-gemm gemm 2>&1 | grep -v JAVA_TOOL > $O/lib.txt
grep -q H200 $O/name.txt && timeout -s QUIT -k 5 45 $J -cp "$BASE" dev.kiln.bench.LibraryBench /tmp/resn/lib-sort sort 2>&1 | grep -v JAVA_TOOL >> $O/lib.txt
grep -q H200 $O/name.txt && (cd bench && timeout 110 python3 torch_library.py /tmp/resn/torch gemm,sort > /tmp/resn/torch.txt 2>&1)
tar -C /tmp/resn -czf $O/res.tgz .
grep -vE "n=" $O/lib.txt | grep -E "Kiln|bench|sort"; grep -E "sort|f16 " /tmp/resn/torch.txt | head -20
