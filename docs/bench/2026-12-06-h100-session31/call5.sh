#!/bin/bash
# Session 31, call 5: the prefill's attention, variants of PrefillKernels.attendBlock (ar: heavy blocks first;
# am: heads of at most 64, the 1B model's, so no masked half; aram: both) against head, by the 1B prefill.
O=$OUT; mkdir -p $O
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz && mkdir -p $R/base && mv $R/.gpu/lib/kiln-{runtime,library}-*.jar $R/base/ && rm -f $R/.gpu/lib/kiln-{samples,bench}-*.jar $R/.gpu/lib/*-tests.jar; }
source $R/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx30g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
HEAD="$PWD/.gpu-check/head/*:$R/.gpu/lib/*"
for v in head ar am aram head; do
  CP=$HEAD; [ $v != head ] && CP="$PWD/.gpu-check/$v/*:$HEAD"
  echo "== $v 1B" | tee -a $O/llama.txt
  timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --steps 160 2>&1 | grep -v JAVA_TOOL | tail -2 | tee -a $O/llama.txt
done
