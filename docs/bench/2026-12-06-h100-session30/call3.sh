#!/bin/bash
# Session 30, call 3: the 16-bit GEMM before (vcf69) and after (vext: stages whose edge falls between
# quads fetch without tests), library jars first on the class path, one call.
O=$OUT; mkdir -p $O /tmp/res6
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz; }
source $R/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx40g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
BASE="$PWD/.gpu-check/head/*:$R/.gpu/lib/*"
for v in vext vcf69; do
  echo "== $v gemm" >> $O/lib.txt
  timeout -s QUIT -k 5 ${GEMMTIME:-90} $J -cp "$PWD/.gpu-check/$v/*:$BASE" dev.kiln.bench.LibraryBench /tmp/res6/lib-$v gemm 2>&1 | grep -v JAVA_TOOL >> $O/lib.txt
done
tar -C /tmp/res6 -czf $O/res.tgz .
grep -vE "n=" $O/lib.txt | grep -E "==|Kiln (f16|bf16)"
