#!/bin/bash
# Session 31, call 4: the llama module's device-model tests on this GPU (prefill in a batch a layer); the 1B prefill,
# pipelined (head) against one batch (prev), and PyTorch's prefill and decode in the same call.
O=$OUT; mkdir -p $O
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz && mkdir -p $R/base && mv $R/.gpu/lib/kiln-{runtime,library}-*.jar $R/base/ && rm -f $R/.gpu/lib/kiln-{samples,bench}-*.jar $R/.gpu/lib/*-tests.jar; }
source $R/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx30g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
HEAD="$PWD/.gpu-check/head/*:$R/.gpu/lib/*"
PREV="$PWD/.gpu-check/prev/*:$HEAD"
timeout 120 $J -Dkiln.noSkips=true -cp "$HEAD" org.junit.platform.console.ConsoleLauncher execute --details=tree --disable-banner \
  --select-class dev.kiln.llama.gpu.DeviceModelTest > $O/tests.txt 2>&1
grep -E "tests (successful|failed|skipped|aborted)" $O/tests.txt | tr -s ' ' | tr '\n' ' '; echo
for v in head prev head prev; do
  CP=$HEAD; [ $v = prev ] && CP=$PREV
  echo "== $v 1B" | tee -a $O/llama.txt
  timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --steps 160 2>&1 | grep -v JAVA_TOOL | tail -1 | tee -a $O/llama.txt
done
(cd bench && timeout 120 python3 -u torch_llama.py --random 1B --steps 640 2>&1 | grep -v -i warn | tail -4) | tee -a $O/llama.txt
