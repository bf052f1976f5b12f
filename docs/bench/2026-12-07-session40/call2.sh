#!/bin/bash
# Session 40, call 2 (an H100; carry: [".gpu-check"], this head's pack with llama jars before it):
# where the decode's attention time goes, and two changes to it. v1: attendCombine in one pass over
# the spans (a running maximum; the stats and values of four spans read together, where the head
# reads the stats, then the values); v16: SPAN 16 (twice the workgroups, half the span each); vp: the
# head with -Dspan.only / -Dcombine.only leaving one of the two attention kernels out of the step (its
# ATTENTION figure is then the other kernel's alone). 1B twice, then 3B.
source bench/device-call.sh
grep -q H200 $O/gpu.txt && exec bash docs/bench/2026-12-07-session40/call1.sh # an H200: issue 50's table first
G="$PWD/.gpu-check"
one() { # variant, model, java flags
  CP="$R/.gpu/lib/*"; [ $1 = head ] || CP="$G/$1/*:$CP"
  echo "== $1 $2 $3"
  timeout 45 $J $3 -cp "$CP" dev.kiln.llama.Generate --random $2 --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2
}
{
for round in 1 2; do
  for v in head v1 v16; do one $v 1B; done
  one vp 1B -Dspan.only=true; one vp 1B -Dcombine.only=true
done
for v in head v1 v16; do one $v 3B; done
one vp 3B -Dspan.only=true; one vp 3B -Dcombine.only=true
} 2>&1 | tee $O/decode.txt
