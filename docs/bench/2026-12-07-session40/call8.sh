#!/bin/bash
# Session 40, call 8 (an H100; carry: [".gpu-check"]): call 7's 1B prefill took 35.6 ms of GPU time
# where its kinds of launch alone took 10.1 (session 31: 10.7 whole); the 3B's and 8B's wholes match
# their parts. Which runs show it: 3B then 1B (the order), 1B with one weight in 512 zero (the data),
# 1B with the pack's llama jar (9cdf8c9, before this session's attention), 1B again in bfloat16.
source bench/device-call.sh
G="$PWD/.gpu-check"
one() { # jars before the pack's, model, more arguments
  echo "== $1 $2 $3"
  timeout 60 $J -cp "$1$R/.gpu/lib/*" dev.kiln.llama.Generate --random $2 --steps 256 $3 2>&1 | grep -v JAVA_TOOL | tail -3
}
{
one "$G/v5/*:" 3B; one "$G/v5/*:" 1B "--zeros 512"; one "" 1B; one "$G/v5/*:" 1B; one "$G/v5/*:" 1B "--bf16"
} 2>&1 | tee $O/prefill.txt
