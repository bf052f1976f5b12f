#!/bin/bash
# Session 33, call 3: where Kiln's float16 GEMV loses to its Java-order twin. GemvTwinBench (Kiln,
# the twins in Java's order, the twin with Kiln's decode in pieces) with the head's library and with
# vnc (the head without the float16 chunk check: every chunk decoded as normal; the data is normal),
# then the 1B decode with each, interleaved.
O=$OUT; mkdir -p $O
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz; }
source $R/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx40g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
HEAD="$PWD/.gpu-check/head/*:$R/.gpu/lib/*"
timeout -s QUIT -k 5 100 $J -cp "$HEAD" dev.kiln.bench.GemvTwinBench kiln 2>&1 | grep -v JAVA_TOOL > $O/twins-head.txt
timeout -s QUIT -k 5 100 $J -cp "$PWD/.gpu-check/vnc/*:$HEAD" dev.kiln.bench.GemvTwinBench kiln 2>&1 | grep -v JAVA_TOOL > $O/twins-vnc.txt
for v in head vnc head vnc; do
  CP=$HEAD; [ $v != head ] && CP="$PWD/.gpu-check/$v/*:$HEAD"
  echo "== $v 1B" >> $O/llama.txt
  timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/llama.txt
done
tail -8 $O/twins-head.txt; tail -8 $O/twins-vnc.txt; cat $O/llama.txt
