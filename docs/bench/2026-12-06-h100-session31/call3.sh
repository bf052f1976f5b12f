#!/bin/bash
# Session 31, call 3: 16-bit GEMV variants (r4, r16: 4 or 16 rows a workgroup; p2: two chunks read ahead) against head,
# by LibraryBench gemv and a 1B decode; then PyTorch's 1B decode and prefill in the same call.
O=$OUT; mkdir -p $O
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz && mkdir -p $R/base && mv $R/.gpu/lib/kiln-{runtime,library}-*.jar $R/base/ && rm -f $R/.gpu/lib/kiln-{samples,bench}-*.jar $R/.gpu/lib/*-tests.jar; }
source $R/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx30g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
HEAD="$PWD/.gpu-check/head/*:$R/.gpu/lib/*"
for v in head r4 r16 p2 head; do
  CP=$HEAD; [ $v != head ] && CP="$PWD/.gpu-check/$v/*:$HEAD"
  echo "== $v gemv" | tee -a $O/gemv.txt
  timeout 60 $J -cp "$CP" dev.kiln.bench.LibraryBench $O/lib-$v gemv 2>&1 | grep -v JAVA_TOOL | tee -a $O/gemv.txt
  echo "== $v 1B" | tee -a $O/llama.txt
  timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 | tee -a $O/llama.txt
done
(cd bench && timeout 120 python3 -u torch_llama.py --random 1B --steps 640 2>&1 | grep -v -i warn | tail -4) | tee -a $O/llama.txt
echo "== head 1B with prefill" | tee -a $O/llama.txt
timeout 90 $J -cp "$HEAD" dev.kiln.llama.Generate --random 1B --steps 256 2>&1 | grep -v JAVA_TOOL | tail -3 | tee -a $O/llama.txt
