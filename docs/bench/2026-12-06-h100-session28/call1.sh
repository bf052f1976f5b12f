#!/bin/bash
# Session 28: this work's jars (head, efeea3c: launches whose bounds checks now settle, no once-loops around inlined helpers) against the
# session-26 state (new, 49303b9), interleaved in one call. SKIP_LLAMA=1, PARTS=..., LIBTIME=s.
O=$OUT; mkdir -p $O
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz && rm -f $R/.gpu/lib/kiln-{runtime,library,samples,bench}-*.jar $R/.gpu/lib/*-tests.jar; }
source $R/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee $O/gpu.txt
J="java -Xmx30g --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"
HEAD="$PWD/.gpu-check/head/*:$R/.gpu/lib/*"
NEW="$PWD/.gpu-check/new/*:$R/.gpu/lib/*"
SPAN16="$PWD/.gpu-check/span16/*:$HEAD"
NEXT="$PWD/.gpu-check/next/*:$HEAD"
if [ -z "$SKIP_LLAMA" ]; then
  for v in new head span16 new head span16; do
    CP=$NEW; [ $v = head ] && CP=$HEAD; [ $v = span16 ] && CP=$SPAN16
    echo "== $v 1B" | tee -a $O/llama.txt
    timeout 100 $J -cp "$CP" dev.kiln.llama.Generate --random 1B --steps 640 2>&1 | grep -v JAVA_TOOL | tail -6 | tee -a $O/llama.txt
  done
  echo "== head 1B explainChecks" | tee -a $O/explain.txt
  timeout 100 $J -Dkiln.explainChecks=true -cp "$HEAD" dev.kiln.llama.Generate --random 1B --steps 64 > /tmp/explain-log.txt 2>&1
  grep -o '[A-Za-z.$#]* runs with its bounds checks' /tmp/explain-log.txt | sort | uniq -c | tee -a $O/explain.txt
  tail -3 /tmp/explain-log.txt | tee -a $O/explain.txt
fi
P=${PARTS:-gemv,rows,scan,sort}
for v in new head; do
  CP=$NEW; [ $v = head ] && CP=$HEAD
  echo "== $v library $P" | tee -a $O/lib.txt
  timeout ${LIBTIME:-150} $J -cp "$CP" dev.kiln.bench.LibraryBench $O/lib-$v $P 2>&1 | grep -v JAVA_TOOL | tail -4 | tee -a $O/lib.txt
done
echo "== next library sort (tile reordered in workgroup memory)" | tee -a $O/lib.txt
timeout 90 $J -cp "$NEXT" dev.kiln.bench.LibraryBench $O/lib-next sort 2>&1 | grep -v JAVA_TOOL | tail -4 | tee -a $O/lib.txt
timeout 60 python3 -c "
import torch
n = 1 << 26
keys = [torch.randint(-2**31, 2**31 - 1, (n,), dtype=torch.int32, device='cuda') for _ in range(2)]
ts = []
for i in range(30):
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record(); torch.sort(keys[i % 2]); b.record(); torch.cuda.synchronize()
    if i >= 5: ts.append(a.elapsed_time(b))
ts.sort(); print('torch.sort 2^26 int32 median ms', ts[len(ts) // 2])
" 2>&1 | tail -1 | tee -a $O/lib.txt
tar -C $O -czf /tmp/all.tgz . && rm -rf $O/* && mv /tmp/all.tgz $O/
