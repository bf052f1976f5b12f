#!/bin/bash
# Session 39: the four calls after call1.sh on the same warm H100 (carry: [".gpu-check"], the jars
# call1.sh names), one command each; their output is in call1/ (decode3b.txt, decode8b.txt,
# decode-ax.txt, lanes-gc16.txt).
source bench/device-call.sh
G="$PWD/.gpu-check"
case ${1:?2, 3, 4 or 5} in
2) for v in gc0 gc16; do CP="$G/gc0/*:$R/.gpu/lib/*"; [ $v = gc16 ] && CP="$G/gc16/*:$G/gc0/*:$R/.gpu/lib/*"
     echo "== $v 3B"; timeout 60 $J -cp "$CP" dev.kiln.llama.Generate --random 3B --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2
   done 2>&1 | tee $O/decode3b.txt ;;
3|4) [ $1 = 3 ] && runs="ax16-3B gc0-8B gc16-8B" out=decode8b.txt || runs="ax16-8B gc16-1B ax16-1B gc16-1B ax16-1B" out=decode-ax.txt
   for v in $runs; do m=${v#*-}
     case $v in ax16*) CP="$G/ax/*:$G/gc16/*:$G/gc0/*:$R/.gpu/lib/*";; gc0*) CP="$G/gc0/*:$R/.gpu/lib/*";; *) CP="$G/gc16/*:$G/gc0/*:$R/.gpu/lib/*";; esac
     echo "== $v"; timeout 70 $J -cp "$CP" dev.kiln.llama.Generate --random $m --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2
   done 2>&1 | tee $O/$out ;;
5) timeout 100 $J -cp "$G/gc16/*:$G/gc0/*:$R/.gpu/lib/*" dev.kiln.bench.GemvTwinBench lanes 2>&1 | grep -v JAVA_TOOL \
     | grep -E "Kiln|java twin 16|grid16g|GEMVs" | tee $O/lanes-gc16.txt ;;
esac
