#!/bin/bash
# Session 31, call 7: the check on this head's pack (700 fuzz kernels), then issue 49's and 50's figures with this
# head: on an H200 the library's GEMMs and sort and torch's, and the decode and prefill with torch's; on an H100
# the decode and prefill with torch's and the library's GEMMs.
export KILN_CHECK_TESTS_S=100 KILN_CHECK_FUZZ_S=60 KILN_CHECK_FUSION_S=40 KILN_CHECK_CORPUS_S=30
O=$OUT; mkdir -p $O /tmp/check /tmp/resn
nvidia-smi --query-gpu=name --format=csv,noheader | tee $O/name.txt
bash bench/h200-check.sh run /tmp/check 2>&1 | tee $O/summary.txt; tar -C /tmp -czf $O/check.tgz check
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz; }
source $R/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx40g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
HEAD="$PWD/.gpu-check/head/*:$R/.gpu/lib/*"
for s in 1B 3B; do
  echo "== head $s" | tee -a $O/llama.txt
  timeout 70 $J -cp "$HEAD" dev.kiln.llama.Generate --random $s --steps 384 2>&1 | grep -v JAVA_TOOL | tail -3 | tee -a $O/llama.txt
done
(cd bench && timeout 110 python3 -u torch_llama.py --random 1B --steps 640 2>&1 | grep -v -i warn | tail -4) | tee -a $O/llama.txt
timeout -s QUIT -k 5 85 $J -cp "$HEAD" dev.kiln.bench.LibraryBench /tmp/resn/lib-gemm gemm 2>&1 | grep -v JAVA_TOOL > $O/lib.txt
if grep -q H200 $O/name.txt; then
  timeout -s QUIT -k 5 45 $J -cp "$HEAD" dev.kiln.bench.LibraryBench /tmp/resn/lib-sort sort 2>&1 | grep -v JAVA_TOOL >> $O/lib.txt
  (cd bench && timeout 110 python3 torch_library.py /tmp/resn/torch gemm,sort > /tmp/resn/torch.txt 2>&1)
fi
tar -C /tmp/resn -czf $O/res.tgz .
grep -vE "n=" $O/lib.txt | grep -E "f16 |sort" | head -12
