#!/usr/bin/env bash
# Runs the whole benchmark suite on the GPU machine, in one device call with .gpu carried (made by
# ../shared/gpu-bundle.sh .gpu and bench/gpu-lib.sh after ./mvnw install):
#   source .gpu/env.sh && bash bench/run-gpu-suite.sh "$OUT/bench"
# PyTorch's figures (torch.csv), Kiln's and the GLSL twins' (results.csv), the JMH host
# benchmarks (jmh-*.txt) and the launch-overhead programs (launch-*.txt, launch.csv) go to the folder given; draw the plots afterwards where a JDK with
# java.desktop is: java -cp bench/target/classes dev.kiln.bench.Plots <folder>.
# KILN_BENCH_SIZES (log2 sizes, default "20 22 24 26 28") and KILN_BENCH_SGEMM (default 2048,4096)
# shrink it for a quick check. KILN_BENCH_PARTS (default "torch kiln host launch") runs some parts
# only: the whole suite takes about 10 minutes on the H200, the limit of one call of the project's
# device tool.
set -euo pipefail
out="${1:?usage: bench/run-gpu-suite.sh <out folder>}"
sizes="${KILN_BENCH_SIZES:-20 22 24 26 28}"
parts=" ${KILN_BENCH_PARTS:-torch kiln host launch} "
mkdir -p "$out"
cd "$(dirname "$0")/.."
lib='.gpu/lib/*'
part() { [[ "$parts" == *" $1 "* ]] && echo "$(date +%T) $1" >> "$out/parts.log"; }
if part torch; then
  if python3 -c 'import torch' 2>/dev/null; then
    python3 bench/torch_suite.py "$out" $sizes > "$out/torch.log" 2>&1
  else
    echo "no PyTorch here: torch.csv not written" | tee "$out/torch.log"
  fi
fi
if part kiln; then
  java -Xmx40g -Dkiln.bench.sgemm="${KILN_BENCH_SGEMM:-2048,4096}" -cp "$lib" dev.kiln.bench.GpuSuite "$out" $sizes \
    > "$out/suite.log" 2>&1
fi
if part host; then
  java -cp "$lib" org.openjdk.jmh.Main OpenToFirstResult LaunchOverhead > "$out/jmh-host.txt" 2>&1
  # (e) the CPU backend: its twins and the loops, then the kernel methods (slow: fewer, longer iterations)
  java -cp "$lib" org.openjdk.jmh.Main CpuBackendCost -p path=twin -wi 3 -w 1 -i 5 -r 1 > "$out/jmh-cpu-twin.txt" 2>&1
  java -cp "$lib" org.openjdk.jmh.Main 'CpuBackendCost.*Kiln' -p path=java -wi 1 -w 2 -i 3 -r 2 \
    > "$out/jmh-cpu-java.txt" 2>&1
  java -Dkiln.device=cpu -cp "$lib" org.openjdk.jmh.Main OpenToFirstResult -p pipelineCache=cold \
    > "$out/jmh-open-cpu.txt" 2>&1
fi
if part launch; then
  # (d) launch overhead: the hand-written LWJGL loop and Kiln's launch paths, alternating
  for run in 1 2; do
    java -cp "$lib" dev.kiln.bench.launch.RawLaunchBench 2000 "$out" > "$out/launch-raw-$run.txt" 2>&1
    java -cp "$lib" dev.kiln.bench.launch.LaunchBench 2000 "$out" > "$out/launch-kiln-$run.txt" 2>&1
  done
fi
echo "$(date +%T) done" >> "$out/parts.log"
grep -h -E '^(copy|saxpy|chain|sum|scan|histogram|stencil|sgemm) ' "$out/suite.log" "$out/torch.log" || true
grep -h -E '^(Benchmark|OpenToFirstResult|LaunchOverhead|CpuBackendCost)' "$out"/jmh-*.txt || true
