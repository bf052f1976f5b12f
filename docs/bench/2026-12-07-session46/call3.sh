#!/bin/bash
# Not run in session 46: too little device time was left to start a machine. To make pre/ (ignored, not committed):
#   git worktree add /tmp/wt d5416f6 && (cd /tmp/wt && ./mvnw -B -o -q package -DskipTests -pl bench -am)
#   mkdir -p .gpu-check/pre && (cd /tmp/wt/bench/target/classes && jar cf "$OLDPWD/.gpu-check/pre/pre.jar" dev/kiln/bench/TensorCores*)
# Session 46, call 3 (carry: [".gpu-check"], call 1's pack and bench jar; pre/: the bench's TensorCores classes and
# modules built at d5416f6, before RegisterUnrolling): the bench's float16 prefetchedWide at 8192, checked and
# unchecked, as this head's processor writes it (H) and as d5416f6's did (P), on one machine.
source bench/device-call.sh
G="$PWD/.gpu-check"
for v in H P H P; do
  C="$G/bench/*:$R/.gpu/lib/*"; [ $v = P ] && C="$G/pre/*:$C"
  timeout -s QUIT -k 5 30 $J "-Dkiln.bench.gemm=Kiln f16 coopmat prefetched wide,Kiln f16 coopmat prefetched wide unchecked" -Dkiln.explainChecks=true -cp "$C" dev.kiln.bench.GemmBench /tmp/res/w$v 8192 2>&1 | grep -E " n=|Exception|bounds checks" | sed "s/^/$v /" | tee -a $O/wide.txt
done
