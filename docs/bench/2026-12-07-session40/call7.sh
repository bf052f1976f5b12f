#!/bin/bash
# Session 40, call 7 (carry: [".gpu-check"]): issue 50's table with this head's llama jar (v5) on
# whatever GPU comes: Kiln's 1B, 3B and 8B decode at positions 128-639 with the prefill of 512 tokens
# and each kind of launch alone, then PyTorch with the same shapes in the same call (eager, one CUDA
# graph a step; at 1B also torch.compile max-autotune without its cudagraphs, then one CUDA graph).
source bench/device-call.sh
G="$PWD/.gpu-check"
for m in 1B 3B 8B; do
  echo "== Kiln $m" >> $O/llama.txt
  timeout -s QUIT -k 5 80 $J -cp "$G/v5/*:$R/.gpu/lib/*" dev.kiln.llama.Generate --random $m --steps 640 2>&1 | grep -v JAVA_TOOL | tail -4 >> $O/llama.txt
done
cat $O/llama.txt
(cd bench && timeout 210 python3 -u torch_llama.py --random 1B --steps 640 --compile max-autotune-no-cudagraphs 2>&1 | grep -v -i warn | tail -6) | tee $O/torch-1B.txt
for m in 3B 8B; do
  (cd bench && timeout 50 python3 -u torch_llama.py --random $m --steps 640 2>&1 | grep -v -i warn | tail -4) | tee $O/torch-$m.txt
done
