#!/bin/bash
# Session 32, call 4: GEMV lanes and rows a workgroup (ga: 16 lanes a row, 16 rows; gb: 16 lanes, 8 rows;
# gc: 8 lanes, 16 rows; head: 32 lanes, 8 rows) by LibraryBench gemv and a 1B decode.
O=$OUT; mkdir -p $O
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz && mkdir -p $R/base && mv $R/.gpu/lib/kiln-{runtime,library}-*.jar $R/base/ && rm -f $R/.gpu/lib/kiln-{samples,bench}-*.jar $R/.gpu/lib/*-tests.jar; }
source $R/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx30g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
HEAD="$PWD/.gpu-check/head/*:$R/.gpu/lib/*"
for v in head ga gb gc head; do
  CP=$HEAD; [ $v != head ] && CP="$PWD/.gpu-check/$v/*:$HEAD"
  echo "== $v gemv" | tee -a $O/gemv.txt
  timeout 60 $J -cp "$CP" dev.kiln.bench.LibraryBench $O/lib-$v gemv 2>&1 | grep -v JAVA_TOOL | grep -E "f16|bf16" | tee -a $O/gemv.txt
  echo "== $v 1B" | tee -a $O/llama.txt
  timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 | tee -a $O/llama.txt
done
