#!/bin/bash
# Session 41, call 2 (carry: [".gpu-check"]; w2/ the llama module with warm slots after each kind of
# launch). Call 1: warming the output projection beside attendSpan gained 0.8 % at 1B, lost at 8B; the
# warm did not fit beside the short span kernel. Here the slots after the other launches:
# -Dkiln.llama.warmQkv=M MiB of [o, gate+up] beside the q/k/v product, Span and Combine continuing,
# O continuing beside the output projection, Gate: the down projection's first MiB beside gate+up, Down:
# the next layer's q/k/v rows beside the down projection. Labels are the non-zero slots.
source bench/device-call.sh
G="$PWD/.gpu-check"
CPW="$G/w2/*:$G/s1/*:$R/.gpu/lib/*"
one() { # model, then slot=MiB pairs
  m=$1; shift; props=""
  for kv in "$@"; do props="$props -Dkiln.llama.warm${kv%%=*}=${kv#*=}"; done
  echo "== $m $*"
  timeout 60 $J $props -cp "$CPW" dev.kiln.llama.Generate --random $m --zeros 512 --steps 256 --prefill 0 2>&1 | grep -v JAVA_TOOL | tail -2
}
{
for round in 1 2; do
  one 1B; one 1B Qkv=8; one 1B Qkv=4; one 1B Qkv=8 Span=4; one 1B Qkv=8 O=8; one 1B Qkv=8 O=16
  one 1B Qkv=8 Gate=8; one 1B Qkv=8 Down=4; one 1B Qkv=8 O=8 Gate=8 Down=4
done
one 3B; one 3B Qkv=18; one 3B Qkv=9; one 3B Qkv=18 O=8 Gate=8
one 8B; one 8B Qkv=16; one 8B Qkv=32
} 2>&1 | tee $O/decode.txt
