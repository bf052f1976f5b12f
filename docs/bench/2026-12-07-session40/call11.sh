#!/bin/bash
# Session 40, call 11 (carry: [".gpu-check"]): the session's last device time. On an H200, issue 50's
# table trimmed to it: Kiln's 1B, 3B and 8B decode (positions 128-639, the 512-token prefill) with this
# head's llama jar (v5) and PyTorch's 1B (eager, one CUDA graph a step, torch.compile max-autotune +
# one graph). On an H100 it stops at once (call 7 ran the whole table there).
source bench/device-call.sh
grep -q H200 $O/gpu.txt || exit 0
G="$PWD/.gpu-check"
for m in 1B 3B 8B; do
  echo "== Kiln $m" >> $O/llama.txt
  timeout -s QUIT -k 5 45 $J -cp "$G/v5/*:$R/.gpu/lib/*" dev.kiln.llama.Generate --random $m --steps 640 2>&1 | grep -v JAVA_TOOL | tail -4 >> $O/llama.txt
done
cat $O/llama.txt
(cd bench && timeout 150 python3 -u torch_llama.py --random 1B --steps 640 --compile max-autotune-no-cudagraphs 2>&1 | grep -v -i warn | tail -6) | tee $O/torch-1B.txt
