#!/bin/bash
# Session 29, call 2: the H200 table of issue 49: the library (this head, ddd8fd3's jars in the
# pack) and PyTorch on the same shapes, in one call.
O=$OUT; mkdir -p $O /tmp/res
R=/tmp/kiln-perf; [ -d /tmp/kiln-check/.gpu ] && R=/tmp/kiln-check # the check unpacked the same pack
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz; }
source $R/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx40g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
timeout -s QUIT -k 10 ${LIBTIME:-210} $J -cp "$PWD/.gpu-check/head/*:$R/.gpu/lib/*" dev.kiln.bench.LibraryBench /tmp/res/lib 2>&1 | grep -v JAVA_TOOL | grep -v " n=" > $O/lib.txt
(cd bench && timeout ${TORCHTIME:-110} python3 torch_library.py /tmp/res/torch > /tmp/res/torch.txt 2>&1)
tar -C /tmp/res -czf $O/res.tgz .
grep -c . $O/lib.txt; tail -2 /tmp/res/torch.txt
