#!/bin/bash
# Session 33, call 3: where Kiln's float16 GEMV loses to its Java-order twin. GemvTwinBench kiln (Kiln,
# the twins in Java's order, the twin with Kiln's decode in pieces and with Kiln's float controls),
# then the 1B decode with the head, vnc (the library without the float16 chunk check: every chunk
# decoded as normal; the random weights are normal) and vnd (the runtime dropping every module's
# DenormPreserve), interleaved.
source bench/device-call.sh
timeout -s QUIT -k 5 120 $J -cp "$HEAD" dev.kiln.bench.GemvTwinBench kiln 2>&1 | grep -v JAVA_TOOL > $O/twins-head.txt
for v in head vnc vnd head vnc vnd; do
  CP=$HEAD; [ $v != head ] && CP="$PWD/.gpu-check/$v/*:$HEAD"
  echo "== $v 1B" >> $O/llama.txt
  timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/llama.txt
done
tail -9 $O/twins-head.txt; cat $O/llama.txt
