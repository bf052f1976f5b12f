#!/bin/bash
O=$OUT; mkdir -p $O
[ -d /tmp/kiln-check/.gpu ] || { mkdir -p /tmp/kiln-check && tar -C /tmp/kiln-check -xJf .gpu-check/pack.tar.xz; }
source /tmp/kiln-check/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx30g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
NEW="$PWD/.gpu-check/over/*:/tmp/kiln-check/.gpu/lib/*:/tmp/kiln-check/extra/*"
BASE="$PWD/.gpu-check/base/*:/tmp/kiln-check/.gpu/lib/*:/tmp/kiln-check/extra/*"
for va in "base 1B" "new 1B" "new 1B" "new 3B" "new 8B"; do
  set -- $va; v=$1; s=$2; a=$3
  CP=$NEW; [ $v = base ] && CP=$BASE
  echo "== $v $s $a" | tee -a $O/llama.txt
  timeout 90 $J -cp "$CP" dev.kiln.llama.Generate --random $s $a --steps 640 2>&1 | grep -v JAVA_TOOL | tail -5 | tee -a $O/llama.txt
done
echo "== torch 1B" | tee -a $O/llama.txt
(cd bench && timeout 60 python3 -u torch_llama.py --random 1B --steps 640 2>&1 | grep -v -i warn | tail -4 | tee -a $O/llama.txt)
echo "== agreement (new)" | tee -a $O/agree.txt
(cd bench && timeout 100 python3 -u llama_agreement.py --java "$J -cp $NEW" --shape 1B --type F16 2>&1 | tail -8 | tee -a $O/agree.txt)
