#!/bin/bash
# Session 37: on an H200, issue 50's table in one call (this head's pack): Kiln 1B/3B/8B decode at
# positions 128-639 with the 512-token prefill, PyTorch eager / CUDA graph / torch.compile on the
# 1B (and eager / graph on 3B, 8B), the agreement with its cold-JVM first tokens. On any other card,
# call3.sh (the GEMV lanes experiment) instead.
source bench/device-call.sh
grep -q H200 $O/gpu.txt || exec bash docs/bench/2026-12-07-session37/call3.sh
for m in 1B 3B 8B; do
  echo "== Kiln $m" >> $O/llama.txt
  timeout 90 $J -cp "$R/.gpu/lib/*" dev.kiln.llama.Generate --random $m --steps 640 2>&1 | grep -v JAVA_TOOL | tail -4 >> $O/llama.txt
done
cat $O/llama.txt
(cd bench && timeout 240 python3 -u torch_llama.py --random 1B --steps 640 --compile default,max-autotune-no-cudagraphs 2>&1 | grep -v -i warn | tail -8) | tee $O/torch-1B.txt
for m in 3B 8B; do
  (cd bench && timeout 60 python3 -u torch_llama.py --random $m --steps 640 2>&1 | grep -v -i warn | tail -5) | tee $O/torch-$m.txt
done
(cd bench && timeout 120 python3 -u llama_agreement.py --java "$J -cp $R/.gpu/lib/*" --shape 1B --type F16 2>&1 | tail -15) | tee $O/agreement.txt
