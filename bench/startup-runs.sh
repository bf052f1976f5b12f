#!/usr/bin/env bash
# Start-up, one fresh JVM per run: StartupProbe's "open + first result" on the device
# -Dkiln.device names (default: the best), N runs per runtime jar, the jars taking turns, then the
# median and range per jar. With no jar given, the runtime jar in .gpu/lib.
#   bash bench/startup-runs.sh <runs> <device> [runtime jar...]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:?runs}; device=${2:-}; shift 2 || true
jars=("$@"); [[ ${#jars[@]} -gt 0 ]] || jars=(.gpu/lib/kiln-runtime-*.jar)
others=$(ls .gpu/lib/*.jar | grep -v '/kiln-runtime-' | tr '\n' ':')
declare -A times
for ((run = 0; run < runs; run++)); do
  for jar in "${jars[@]}"; do
    line=$(java --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM \
      ${device:+-Dkiln.device=$device} -cp "$jar:$others" dev.kiln.bench.host.StartupProbe 2>&1 | grep 'open + first result')
    times[$jar]+="$(sed -E 's/.*result: ([0-9.]+) ms.*/\1/' <<<"$line") "
  done
done
for jar in "${jars[@]}"; do
  sorted=$(tr ' ' '\n' <<<"${times[$jar]}" | grep . | sort -n)
  n=$(wc -l <<<"$sorted")
  echo "$(basename "$jar") ${device:-best}: median $(sed -n "$(( (n + 1) / 2 ))p" <<<"$sorted") ms," \
    "range $(head -1 <<<"$sorted")-$(tail -1 <<<"$sorted") ms, $n runs; all: $(tr '\n' ' ' <<<"$sorted")"
done
