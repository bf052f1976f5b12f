#!/bin/bash
# Session 29, call 1: the library's 16-bit GEMM and where its time goes (variant library jars first
# on the class path: vdirect = blocks inside c store their tiles from the registers (this session's
# change), vfetch = no edge tests in the fetches, vstore = every tile stored straight to c,
# vfetchstore = both; the last three valid at shapes of whole blocks only), the histogram with
# constant-size counters against its twin, and (TORCH=1) PyTorch's library figures.
O=$OUT; mkdir -p $O
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz; }
source $R/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx40g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
BASE="$PWD/.gpu-check/head/*:$R/.gpu/lib/*"
echo "== head scan,histogram" | tee -a $O/lib.txt
timeout 60 $J -cp "$BASE" dev.kiln.bench.LibraryBench /tmp/res/lib-scan scan 2>&1 | grep -v JAVA_TOOL >> $O/lib.txt
grep -i hist $O/lib.txt
for v in ${VARIANTS:-head vdirect vfetch vstore vfetchstore}; do
  CP=$BASE; [ $v != head ] && CP="$PWD/.gpu-check/$v/*:$BASE"
  echo "== $v gemm" | tee -a $O/lib.txt
  timeout ${GEMMTIME:-120} $J -cp "$CP" dev.kiln.bench.LibraryBench /tmp/res/lib-$v gemm 2>&1 | grep -v JAVA_TOOL | tee -a $O/lib.txt | grep -E "f16|bench" 
done
[ -n "$TORCH" ] && (cd bench && timeout 150 python3 torch_library.py /tmp/res/torch > /tmp/res/torch.txt 2>&1; tail -3 /tmp/res/torch.txt)
tar -C /tmp/res -czf $O/res.tgz .
