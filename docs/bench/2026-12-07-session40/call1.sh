#!/bin/bash
# Session 40, call 1 (carry: [".gpu-check"]; the pack is this head's, KILN_CHECK_KERNELS=700 bash
# bench/h200-check.sh pack). On an H200: issue 50's table, in one call: Kiln's 1B, 3B and 8B decode at
# positions 128-639 with the prefill of 512 tokens and each kind of launch alone, then PyTorch with
# the same shapes (eager, one CUDA graph a step; at 1B also torch.compile max-autotune without its
# cudagraphs, then one CUDA graph). Elsewhere: the 1B decode of this head and of the variants under
# .gpu-check/v* (each a folder of jars put before the pack's), twice, and the device's float controls.
source bench/device-call.sh
G="$PWD/.gpu-check"
if grep -q H200 $O/gpu.txt; then
  for m in 1B 3B 8B; do
    echo "== Kiln $m" >> $O/llama.txt
    timeout -s QUIT -k 5 80 $J -cp "$R/.gpu/lib/*" dev.kiln.llama.Generate --random $m --steps 640 2>&1 | grep -v JAVA_TOOL | tail -4 >> $O/llama.txt
  done
  cat $O/llama.txt
  (cd bench && timeout 210 python3 -u torch_llama.py --random 1B --steps 640 --compile max-autotune-no-cudagraphs 2>&1 | grep -v -i warn | tail -6) | tee $O/torch-1B.txt
  for m in 3B 8B; do
    (cd bench && timeout 50 python3 -u torch_llama.py --random $m --steps 640 2>&1 | grep -v -i warn | tail -4) | tee $O/torch-$m.txt
  done
  exit 0
fi
timeout 30 $J -cp "$R/.gpu/lib/*" dev.kiln.Devices 2>&1 | grep -v JAVA_TOOL | head -8 | tee $O/devices.txt
for round in 1 2; do
  for v in head $(cd $G && ls -d v* 2>/dev/null); do
    CP="$R/.gpu/lib/*"; [ $v = head ] || CP="$G/$v/*:$CP"
    echo "== $v 1B" >> $O/decode.txt
    timeout 45 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/decode.txt
  done
done
cat $O/decode.txt
