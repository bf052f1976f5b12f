#!/bin/bash
# Session 31, call 6: the prefill attention again (head: heavy blocks first); variants: v16 and v64 query vectors a workgroup (32 in head),
# ex: each exponential once (its sharers read it from workgroup memory; one more barrier a tile).
O=$OUT; mkdir -p $O
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz && mkdir -p $R/base && mv $R/.gpu/lib/kiln-{runtime,library}-*.jar $R/base/ && rm -f $R/.gpu/lib/kiln-{samples,bench}-*.jar $R/.gpu/lib/*-tests.jar; }
source $R/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx30g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
HEAD="$PWD/.gpu-check/head/*:$R/.gpu/lib/*"
for v in head v16 v64 ex head; do
  CP=$HEAD; [ $v != head ] && CP="$PWD/.gpu-check/$v/*:$HEAD"
  echo "== $v 1B" | tee -a $O/llama.txt
  timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --steps 160 2>&1 | grep -v JAVA_TOOL | tail -2 | tee -a $O/llama.txt
done
