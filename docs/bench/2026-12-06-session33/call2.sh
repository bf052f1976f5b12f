#!/bin/bash
# Session 33, call 2: GemvTwinBench with the head's library (32-byte chunks) and with v16 (16-byte
# chunks, Kiln alone and its Java-order twins) and vf (v16 with Gpu.fma in the lanes), then the 1B
# decode with each, interleaved.
source bench/device-call.sh
timeout -s QUIT -k 5 150 $J -cp "$HEAD" dev.kiln.bench.GemvTwinBench 2>&1 | grep -v JAVA_TOOL > $O/twins-head.txt
for v in v16 vf; do
  timeout -s QUIT -k 5 100 $J -cp "$PWD/.gpu-check/$v/*:$HEAD" dev.kiln.bench.GemvTwinBench kiln 2>&1 | grep -v JAVA_TOOL > $O/twins-$v.txt
done
for v in head v16 vf head v16 vf; do
  CP=$HEAD; [ $v != head ] && CP="$PWD/.gpu-check/$v/*:$HEAD"
  echo "== $v 1B" >> $O/llama.txt
  timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/llama.txt
done
tail -12 $O/twins-head.txt; cat $O/twins-v16.txt $O/twins-vf.txt $O/llama.txt
