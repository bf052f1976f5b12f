#!/bin/bash
# Session 41, call 1 (carry: [".gpu-check"]: the pack of 9cdf8c9, s1/ this head's library, w1/ this head's
# llama with LlamaKernels.warm). The decode with the next products' weights read into the L2 cache
# beside the attention: -Dkiln.llama.warmSpan=M MiB of the output projection then the gate and up rows
# read beside attendSpan, -Dkiln.llama.warmCombine=N MiB more beside attendCombine (0 and 0: this
# head's step). 1B in two rounds, then 3B and 8B. On an H200, issue 50's table first.
source bench/device-call.sh
G="$PWD/.gpu-check"
CPW="$G/w1/*:$G/s1/*:$R/.gpu/lib/*"
if grep -q H200 $O/gpu.txt; then
  for m in 1B 3B 8B; do
    echo "== Kiln $m" >> $O/llama.txt
    timeout -s QUIT -k 5 80 $J -cp "$CPW" dev.kiln.llama.Generate --random $m --steps 640 2>&1 | grep -v JAVA_TOOL | tail -4 >> $O/llama.txt
  done
  cat $O/llama.txt
  (cd bench && timeout 210 python3 -u torch_llama.py --random 1B --steps 640 --compile max-autotune-no-cudagraphs 2>&1 | grep -v -i warn | tail -6) | tee $O/torch-1B.txt
  for m in 3B 8B; do
    (cd bench && timeout 50 python3 -u torch_llama.py --random $m --steps 640 2>&1 | grep -v -i warn | tail -4) | tee $O/torch-$m.txt
  done
fi
one() { # model, warmSpan, warmCombine, [groups]
  echo "== $1 span $2 combine $3 groups ${4:-264}"
  timeout 60 $J -Dkiln.llama.warmSpan=$2 -Dkiln.llama.warmCombine=$3 -Dkiln.llama.warmGroups=${4:-264} -cp "$CPW" \
    dev.kiln.llama.Generate --random $1 --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2
}
{
for round in 1 2; do
  one 1B 0 0; one 1B 8 0; one 1B 24 0; one 1B 8 8; one 1B 16 8; one 1B 32 0
done
one 1B 24 0 132; one 1B 24 0 528
one 3B 0 0; one 3B 18 0; one 3B 32 8
one 8B 0 0; one 8B 32 0; one 8B 40 8
} 2>&1 | tee $O/decode.txt
