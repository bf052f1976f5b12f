#!/bin/bash
# Session 32, call 3 (as call 2), on this head's pack: the check (700 fuzz kernels; the device tests include the
# sharded-array tests on two logical devices of the GPU), ShardBench and torch_copy.py; on an H200 also
# the library's GEMMs and sort and the 1B decode (issue 49's and 50's H200 figures).
O=$OUT; mkdir -p $O /tmp/check /tmp/resn
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
export KILN_CHECK_TESTS_S=110 KILN_CHECK_FUZZ_S=60 KILN_CHECK_FUSION_S=40 KILN_CHECK_CORPUS_S=30
bash bench/h200-check.sh run /tmp/check 2>&1 | tee $O/summary.txt; tar -C /tmp -czf $O/check.tgz check
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz; }
source $R/.gpu/env.sh
J="java -Xmx40g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
HEAD="$PWD/.gpu-check/head/*:$R/.gpu/lib/*"
timeout -s QUIT -k 5 150 $J -cp "$HEAD" dev.kiln.bench.ShardBench /tmp/resn/shard 2>&1 | grep -v JAVA_TOOL > $O/shard.txt
timeout 60 python3 bench/torch_copy.py > $O/torch.txt 2>&1
if grep -q H200 $O/gpu.txt; then
  timeout -s QUIT -k 5 85 $J -cp "$HEAD" dev.kiln.bench.LibraryBench /tmp/resn/lib-gemm gemm 2>&1 | grep -v JAVA_TOOL > $O/lib.txt
  timeout 60 $J -cp "$HEAD" dev.kiln.llama.Generate --random 1B --steps 384 2>&1 | grep -v JAVA_TOOL | tail -3 > $O/llama.txt
fi
tar -C /tmp/resn -czf $O/res.tgz .
cat $O/shard.txt $O/torch.txt | grep -vE "^\s*$" | tail -24
