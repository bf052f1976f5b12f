#!/bin/bash
# Session 28, call 4: the library's GEMMs, head (device checks off) against new (49303b9), and torch at 4096/8192.
O=$OUT; mkdir -p $O
R=/tmp/kiln-perf
source $R/.gpu/env.sh
J="java -Xmx30g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
for v in head new; do
  echo "== $v gemm" | tee -a $O/gemm.txt
  timeout 170 $J -cp "$PWD/.gpu-check/$v/*:$R/.gpu/lib/*" dev.kiln.bench.LibraryBench $O/lib-$v gemm 2>&1 | grep -v JAVA_TOOL | grep -E '^gemm .*(Kiln|GFLOP|TFLOP)' | tee -a $O/gemm.txt
done
(cd bench && timeout 100 python3 -u torch_gemm.py $O 4096 8192 2>&1 | tail -8) | tee -a $O/gemm.txt
