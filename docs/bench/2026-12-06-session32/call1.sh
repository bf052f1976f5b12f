#!/bin/bash
# Session 32, call 1 (one GPU): ShardBench on two logical devices of the one GPU (the sharded path's
# overhead, and its bits on NVIDIA), and torch's figures beside it.
O=$OUT; mkdir -p $O /tmp/resn
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz; }
source $R/.gpu/env.sh
J="java -Xmx40g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
HEAD="$PWD/.gpu-check/head/*:$R/.gpu/lib/*"
timeout -s QUIT -k 5 240 $J -cp "$HEAD" dev.kiln.bench.ShardBench /tmp/resn/shard 2>&1 | grep -v JAVA_TOOL | tee $O/shard.txt
timeout 120 python3 bench/torch_copy.py 2>&1 | tee $O/torch.txt
tar -C /tmp/resn -czf $O/res.tgz .
