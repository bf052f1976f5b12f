#!/bin/bash
# Session 33, call 4: the 1B decode with library variants whose row starts are known multiples of 8
# (rounded down, an experiment: the decode's rows are), so that Kiln drops the copies' run-time
# alignment tests and their scalar paths: va32 (32-byte chunks), va16 (16-byte); the
# head and va32 twice.
source bench/device-call.sh
for v in head va32 va16 head va32; do
  CP=$HEAD; [ $v != head ] && CP="$PWD/.gpu-check/$v/*:$HEAD"
  echo "== $v 1B" >> $O/llama.txt
  timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2 >> $O/llama.txt
done
cat $O/llama.txt
