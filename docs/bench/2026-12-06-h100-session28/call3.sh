#!/bin/bash
# Session 28, call 3: prefill of 512 tokens, Kiln (head) and PyTorch eager on one machine; 3B decode (head).
O=$OUT; mkdir -p $O
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz && rm -f $R/.gpu/lib/kiln-{runtime,library,samples,bench}-*.jar $R/.gpu/lib/*-tests.jar; }
source $R/.gpu/env.sh
J="java -Xmx30g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
HEAD="$PWD/.gpu-check/head/*:$R/.gpu/lib/*"
(cd bench && timeout 120 python3 -u torch_llama.py --random 1B --steps 640 2>&1 | grep -v -i warn | tail -4) | tee -a $O/llama.txt
for s in 1B 3B 1B; do
  echo "== head $s" | tee -a $O/llama.txt
  timeout 100 $J -cp "$HEAD" dev.kiln.llama.Generate --random $s --steps 640 2>&1 | grep -v JAVA_TOOL | tail -3 | tee -a $O/llama.txt
done
(cd bench && timeout 100 python3 -u torch_llama.py --random 1B --steps 640 2>&1 | grep -v -i warn | tail -4) | tee -a $O/llama.txt
