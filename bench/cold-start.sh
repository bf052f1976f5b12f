#!/usr/bin/env bash
# The cold-start figures of PERFORMANCE.md in one go, on the machine it runs on (the H200 through the
# device tool, with .gpu unpacked): StartupProbe's open + first result in fresh JVMs for each runtime
# jar given (the first is "now"), alone (RUNS each, the jars taking turns) and 8 at once (24 JVMs), a
# -Dkiln.startupTrace breakdown of each, the same with a JDK AOT cache from one training run, and the
# driver's floor (bench/tools/vulkan_floor.py) alone and 8 at once.
#   bash bench/cold-start.sh <out> <runtime jar>...
set -uo pipefail
out=${1:?out folder}; shift
cd "$(dirname "$0")/.."
mkdir -p "$out"
runs=${RUNS:-20}
flags=(--enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM)
others=$(ls .gpu/lib/*.jar | grep -v '/kiln-runtime-' | tr '\n' ':')
{ ls -l /dev/nvidia* /dev/dri 2>&1; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv 2>&1; } > "$out/machine.txt"
bash bench/startup-runs.sh "$runs" "" "$@" > "$out/alone.txt" 2>&1
for jar in "$@"; do
  name=$(basename "$jar" .jar)
  for k in 1 2 3; do
    java "${flags[@]}" -Dkiln.startupTrace=true -cp "$jar:$others" dev.kiln.bench.host.StartupProbe > "$out/trace-$name-$k.txt" 2>&1
  done
  bash bench/startup-soak.sh "$out/soak-$name" 24 8 "" "$jar" > "$out/eight-$name.txt" 2>&1
done
# an AOT cache (JDK 25) from one training run of the first jar, then the same runs with it
jar=$1
java -XX:AOTCacheOutput="$out/probe.aot" "${flags[@]}" -cp "$jar:$others" dev.kiln.bench.host.StartupProbe \
  > "$out/aot-training.txt" 2>&1
STARTUP_FLAGS="-XX:AOTCache=$out/probe.aot" bash bench/startup-runs.sh "$runs" "" "$jar" > "$out/aot-alone.txt" 2>&1
SOAK_FLAGS="-XX:AOTCache=$out/probe.aot" bash bench/startup-soak.sh "$out/soak-aot" 24 8 "" "$jar" > "$out/aot-eight.txt" 2>&1
java -XX:AOTCache="$out/probe.aot" "${flags[@]}" -Dkiln.startupTrace=true -cp "$jar:$others" \
  dev.kiln.bench.host.StartupProbe > "$out/aot-trace.txt" 2>&1
rm -f "$out/probe.aot"
# the driver's floor: loader, instance and device alone, in Python (bench/tools/vulkan_floor.py)
if command -v python3 > /dev/null; then
  for ((k = 0; k < runs; k++)); do python3 bench/tools/vulkan_floor.py; done > "$out/floor-alone.txt" 2>&1
  for round in 1 2 3; do
    for k in 1 2 3 4 5 6 7 8; do python3 bench/tools/vulkan_floor.py & done
    wait
  done > "$out/floor-eight.txt" 2>&1
  for f in floor-alone floor-eight; do
    echo "$f: median $(sed -E 's/floor ([0-9.]+) ms.*/\1/' "$out/$f.txt" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}') ms" \
      "of $(grep -c floor "$out/$f.txt") processes"
  done > "$out/floor.txt"
fi
head -50 "$out"/alone.txt "$out"/eight-*.txt "$out"/aot-alone.txt "$out"/aot-eight.txt "$out"/floor.txt
