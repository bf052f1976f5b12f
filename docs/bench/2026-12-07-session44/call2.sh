#!/bin/bash
# Never ran: no device time was left. It needs the tree of 39e12f2 (SliceProbe, the float32 split) and
# bench/h200-check.sh's pack of that head.
# Session 44, call 2 (carry: [".gpu-check"] holding bench/h200-check.sh's pack of this session's head and bench/ (first on
# the class path) the runtime jar whose devices lend batches their scratch arrays, and
# its bench jar: kk.diff's marks, floatsInBlocksScaled, split-k, SliceProbe). Cut to the session's last device
# time: SliceProbe (where a split float product's time goes); Gemm.floats at 4096 / 8192 and two shapes of few
# blocks; the 1B prefill of 512 tokens; GemmTest on the device (the marked modules and the tensor-core slices against their bounds).
rm -rf /tmp/kiln-perf # a machine still warm from call 1 holds the pack before this one
source bench/device-call.sh
G="$PWD/.gpu-check"
timeout -s QUIT -k 5 100 $J -cp "$G/bench/*:$R/.gpu/lib/*" dev.kiln.library.SliceProbe 2>&1 | grep -v -E "^INFO|Device open" | tee $O/probe.txt
timeout -s QUIT -k 5 50 $J -Dkiln.bench.sgemmPlain=true -Dkiln.bench.gemmShapes=4096x4096x4096,8192x8192x8192,1000x1000x1000,8192x128x8192 -cp "$G/bench/*:$R/.gpu/lib/*" dev.kiln.bench.LibraryBench /tmp/res/s sgemm 2>&1 | grep -E "GFLOP/s|Exception" | tee $O/sgemm.txt
timeout 40 $J -cp "$G/bench/*:$R/.gpu/lib/*" dev.kiln.llama.Generate --random 1B --zeros 512 --steps 32 --prefill 512 2>&1 | grep -i -E "prefill|Exception" | tee $O/prefill.txt
timeout -s QUIT -k 5 80 $J -cp "$G/bench/*:$R/.gpu/lib/*" org.junit.platform.console.ConsoleLauncher execute --details=summary --disable-banner \
  --select-class dev.kiln.library.GemmTest 2>&1 | tail -25 | tee $O/gemmtest.txt
