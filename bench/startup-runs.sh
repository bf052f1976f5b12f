#!/usr/bin/env bash
# Start-up, one fresh JVM per run: StartupProbe's "open + first result" on the device
# -Dkiln.device names (default: the best), N runs per runtime jar, the jars taking turns, then the
# median and range per jar. With no jar given, the runtime jar in .gpu/lib. A run that has not
# finished after 30 s is killed and counted as hung (PERFORMANCE.md, "start-ups that hung").
#   bash bench/startup-runs.sh <runs> <device> [runtime jar...]
# Extra JVM flags for every run: STARTUP_FLAGS="-Dkiln.warmup=false" bash bench/startup-runs.sh ...
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:?runs}; device=${2:-}; shift 2 || true
jars=("$@"); [[ ${#jars[@]} -gt 0 ]] || jars=(.gpu/lib/kiln-runtime-*.jar)
others=$(ls .gpu/lib/*.jar | grep -v '/kiln-runtime-' | tr '\n' ':')
declare -A times hung
for ((run = 0; run < runs; run++)); do
  for jar in "${jars[@]}"; do
    # shellcheck disable=SC2086
    line=$(timeout -k 5 30 java --enable-native-access=ALL-UNNAMED \
      -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM ${STARTUP_FLAGS:-} \
      ${device:+-Dkiln.device=$device} -cp "$jar:$others" dev.kiln.bench.host.StartupProbe 2>&1 \
      | grep 'open + first result' || true)
    if [[ -z $line ]]; then
      hung[$jar]=$(( ${hung[$jar]:-0} + 1 ))
    else
      times[$jar]+="$(sed -E 's/.*result: ([0-9.]+) ms.*/\1/' <<<"$line") "
    fi
  done
done
for jar in "${jars[@]}"; do
  sorted=$(tr ' ' '\n' <<<"${times[$jar]:-}" | grep . | sort -n || true)
  n=$(grep -c . <<<"$sorted" || true)
  if [[ $n -eq 0 ]]; then
    echo "$(basename "$jar") ${device:-best}: no run finished, ${hung[$jar]:-0} hung or failed"
    continue
  fi
  echo "$(basename "$jar") ${device:-best}: median $(sed -n "$(( (n + 1) / 2 ))p" <<<"$sorted") ms," \
    "range $(head -1 <<<"$sorted")-$(tail -1 <<<"$sorted") ms, $n runs, ${hung[$jar]:-0} hung or failed;" \
    "all: $(tr '\n' ' ' <<<"$sorted")"
done
