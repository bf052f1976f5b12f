#!/bin/bash
# Session 30, call 2: the H200 check on this head's pack (ff21adb, 700 fuzz kernels), then the library's
# GEMV before (vcf69: one row per run) and after (the pack: two rows per run), the GEMMs and the sort
# with this head, and PyTorch's GEMMs and sort, one after the other.
export KILN_CHECK_TESTS_S=${TESTS_S:-100} KILN_CHECK_FUZZ_S=60 KILN_CHECK_FUSION_S=40 KILN_CHECK_CORPUS_S=30
O=$OUT; mkdir -p $O /tmp/check /tmp/res5
[ -n "$NOCHECK" ] || { bash bench/h200-check.sh run /tmp/check 2>&1 | tee $O/summary.txt; tar -C /tmp -czf $O/check.tgz check; }
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz; }
source $R/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx40g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
BASE="$PWD/.gpu-check/head/*:$R/.gpu/lib/*"
for v in vcf69 head; do
  CP=$BASE; [ $v != head ] && CP="$PWD/.gpu-check/$v/*:$BASE"
  echo "== $v gemv" >> $O/lib.txt
  timeout -s QUIT -k 5 ${GEMVTIME:-35} $J -cp "$CP" dev.kiln.bench.LibraryBench /tmp/res5/lib-g$v gemv 2>&1 | grep -v JAVA_TOOL >> $O/lib.txt
done
echo "== head gemm" >> $O/lib.txt
timeout -s QUIT -k 5 ${GEMMTIME:-90} $J -cp "$BASE" dev.kiln.bench.LibraryBench /tmp/res5/lib-gemm gemm 2>&1 | grep -v JAVA_TOOL >> $O/lib.txt
echo "== head sort" >> $O/lib.txt
timeout -s QUIT -k 5 45 $J -cp "$BASE" dev.kiln.bench.LibraryBench /tmp/res5/lib-sort sort 2>&1 | grep -v JAVA_TOOL >> $O/lib.txt
(cd bench && timeout ${TORCHTIME:-110} python3 torch_library.py /tmp/res5/torch gemm,sort > /tmp/res5/torch.txt 2>&1)
tar -C /tmp/res5 -czf $O/res.tgz .
grep -vE "n=|^\s|^\"|^$|Thread|JNI|Compiler|GC |VM " $O/lib.txt | grep -E "==|Kiln f16|gemv|sort|f32" | head -90; tail -40 /tmp/res5/torch.txt
