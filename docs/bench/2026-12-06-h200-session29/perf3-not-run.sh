#!/bin/bash
# Session 29, call 3: the sort timed with its keys refreshed on the device (call 2's uploads let the
# clock fall to 345 MHz), and PyTorch's GEMMs (call 2's torch run ended at its time limit).
O=$OUT; mkdir -p $O /tmp/res3
R=/tmp/kiln-perf
(cd bench && timeout 100 python3 torch_library.py /tmp/res3/torch gemm,sort > /tmp/res3/torch.txt 2>&1) &
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz; }
wait
source $R/.gpu/env.sh
J="java -Xmx40g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
timeout -s QUIT -k 10 60 $J -cp "$PWD/.gpu-check/head/*:$R/.gpu/lib/*" dev.kiln.bench.LibraryBench /tmp/res3/lib sort 2>&1 | grep -v JAVA_TOOL > $O/lib.txt
tar -C /tmp/res3 -czf $O/res.tgz .
cat $O/lib.txt; grep -c . /tmp/res3/torch/*.csv
