#!/bin/bash
# Session 31, call 2: the prefill's host clock against its GPU time (this head: the unused-argument array per batch).
O=$OUT; mkdir -p $O
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz && mkdir -p $R/base && mv $R/.gpu/lib/kiln-{runtime,library}-*.jar $R/base/ && rm -f $R/.gpu/lib/kiln-{samples,bench}-*.jar $R/.gpu/lib/*-tests.jar; }
source $R/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx30g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
HEAD="$PWD/.gpu-check/head/*:$R/.gpu/lib/*"
BASE="$PWD/.gpu-check/head/kiln-llama-0.1.0-SNAPSHOT.jar:$PWD/.gpu-check/head/gson-2.13.2.jar:$R/base/*:$R/.gpu/lib/*"
for v in head base head base; do
  CP=$HEAD; [ $v = base ] && CP=$BASE
  echo "== $v 1B" | tee -a $O/llama.txt
  timeout 100 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --steps 256 2>&1 | grep -v JAVA_TOOL | tail -3 | tee -a $O/llama.txt
done
