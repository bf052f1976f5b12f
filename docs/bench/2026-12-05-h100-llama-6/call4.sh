#!/bin/bash
# Session 26, call 4: the landed GEMV changes (new) against the session's start (base, f2ab442); 3B, 8B; agreement with PyTorch; PyTorch eager, CUDA graph and torch.compile max-autotune + graph.
O=$OUT; mkdir -p $O
[ -d /tmp/kiln-check/.gpu ] || { mkdir -p /tmp/kiln-check && tar -C /tmp/kiln-check -xJf .gpu-check/pack.tar.xz; }
source /tmp/kiln-check/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx30g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
NEW="$PWD/.gpu-check/new/*:/tmp/kiln-check/.gpu/lib/*:/tmp/kiln-check/extra/*"
BASE="$PWD/.gpu-check/base/*:/tmp/kiln-check/.gpu/lib/*:/tmp/kiln-check/extra/*"
for va in "base 1B" "new 1B" "new 1B --bf16" "new 3B" "new 8B" "new 1B"; do
  set -- $va; v=$1; s=$2; a=$3
  CP=$NEW; [ $v = base ] && CP=$BASE
  echo "== $v $s $a" | tee -a $O/llama.txt
  timeout 120 $J -cp "$CP" dev.kiln.llama.Generate --random $s $a --steps 640 2>&1 | grep -v JAVA_TOOL | tail -3 | tee -a $O/llama.txt
done
echo "== new gemv" | tee -a $O/gemv.txt
timeout 60 $J -cp "$NEW" dev.kiln.bench.LibraryBench $O/lib-new gemv 2>&1 | grep -v JAVA_TOOL | tail -3 >> $O/gemv.txt
echo "== agreement (new)" | tee -a $O/agree.txt
(cd bench && timeout 150 python3 -u llama_agreement.py --java "$J -cp $NEW" --shape 1B --type F16 2>&1 | tail -10 | tee -a $O/agree.txt)
echo "== torch 1B" | tee -a $O/llama.txt
(cd bench && timeout 280 python3 -u torch_llama.py --random 1B --steps 640 --compile max-autotune-no-cudagraphs 2>&1 | grep -v -i warn | tail -8 | tee -a $O/llama.txt)
