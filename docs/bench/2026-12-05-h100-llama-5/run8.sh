#!/bin/bash
O=$OUT; mkdir -p $O
[ -d /tmp/kiln-check/.gpu ] || { mkdir -p /tmp/kiln-check && tar -C /tmp/kiln-check -xJf .gpu-check/pack.tar.xz; }
source /tmp/kiln-check/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx30g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
NEW="$PWD/.gpu-check/over/*:/tmp/kiln-check/.gpu/lib/*:/tmp/kiln-check/extra/*"
BASE="$PWD/.gpu-check/base/*:/tmp/kiln-check/.gpu/lib/*:/tmp/kiln-check/extra/*"
for va in "base 1B" "new 1B" "base 1B" "new 1B" "new 1B --bf16" "new 3B" "new 8B"; do
  set -- $va; v=$1; s=$2; a=$3
  CP=$NEW; [ $v = base ] && CP=$BASE
  echo "== $v $s $a" | tee -a $O/llama.txt
  timeout 120 $J -cp "$CP" dev.kiln.llama.Generate --random $s $a --steps 640 2>&1 | grep -v JAVA_TOOL | tail -5 | tee -a $O/llama.txt
done
echo "== torch 1B" | tee -a $O/llama.txt
(cd bench && timeout 330 python3 -u torch_llama.py --random 1B --steps 640 --compile default,max-autotune-no-cudagraphs 2>&1 | grep -v -i warn | tail -8 | tee -a $O/llama.txt)
