#!/bin/bash
# Session 30, call 1: GEMM variants (library jars first on the class path; the pack holds vnew):
# vold = ddd8fd3, vnew = fetches without edge tests where a stage has none (constant branches), vnew2 = the same test per quad, f32 tiles stored from registers; the histogram without its range test, the 16-bit GEMV reading x once (vnew2) or summing in two chains (vnew3), all wrong results, for the cost only; then the sort ((TORCH=1) then torch GEMMs and sort).
O=$OUT; mkdir -p $O /tmp/res4
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz; }
source $R/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx40g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
BASE="$PWD/.gpu-check/head/*:$R/.gpu/lib/*"
for v in ${VARIANTS:-vnew vnew2 vold}; do
  CP=$BASE; [ $v != head ] && CP="$PWD/.gpu-check/$v/*:$BASE"
  echo "== $v gemm" | tee -a $O/lib.txt
  timeout -s QUIT -k 5 ${GEMMTIME:-90} $J -cp "$CP" dev.kiln.bench.LibraryBench /tmp/res4/lib-$v gemm 2>&1 | grep -v JAVA_TOOL >> $O/lib.txt
done
for v in ${HVARIANTS:-vnew2 vold}; do
  echo "== $v scan,histogram" | tee -a $O/lib.txt
  timeout -s QUIT -k 5 40 $J -cp "$PWD/.gpu-check/$v/*:$BASE" dev.kiln.bench.LibraryBench /tmp/res4/lib-h$v scan 2>&1 | grep -v JAVA_TOOL >> $O/lib.txt
done
for v in ${GVARIANTS:-vold vnew2 vnew3}; do
  echo "== $v gemv" | tee -a $O/lib.txt
  timeout -s QUIT -k 5 35 $J -cp "$PWD/.gpu-check/$v/*:$BASE" dev.kiln.bench.LibraryBench /tmp/res4/lib-g$v gemv 2>&1 | grep -v JAVA_TOOL >> $O/lib.txt
done
echo "== sort" | tee -a $O/lib.txt
timeout -s QUIT -k 5 50 $J -cp "$BASE" dev.kiln.bench.LibraryBench /tmp/res4/lib-sort sort 2>&1 | grep -v JAVA_TOOL >> $O/lib.txt
[ -n "$TORCH" ] && (cd bench && timeout ${TORCHTIME:-150} python3 torch_library.py /tmp/res4/torch gemm,sort > /tmp/res4/torch.txt 2>&1)
tar -C /tmp/res4 -czf $O/res.tgz .
grep -vE "n=" $O/lib.txt | grep -E "==|f16|f32|sort|bf16|histogram" | head -80; [ -n "$TORCH" ] && tail -30 /tmp/res4/torch.txt
