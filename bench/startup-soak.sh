#!/usr/bin/env bash
# Soak test of start-up: N fresh JVMs, each opening the device -Dkiln.device names and running one
# kernel (StartupProbe), P of them at a time. A JVM that has not printed its result after LIMIT
# seconds (default 30) counts as hung: its native state is recorded before it is killed, into
# <out>/hang-K/ (every thread's wchan and kernel stack from /proc, and a native stack of every
# thread through gdb or cuda-gdb where one is on the PATH), then it is SIGKILLed.
#   bash bench/startup-soak.sh <out> <runs> <parallel> [device] [runtime jar]
# Extra JVM flags: SOAK_FLAGS="-Dkiln.warmup=false"; the time limit: SOAK_LIMIT=30.
# Without a jar: the runtime jar in .gpu/lib, with the rest of .gpu/lib on the class path.
# Prints one line: runs, finished, hung, failed, and the median start-up.
set -uo pipefail
out=${1:?out folder}; runs=${2:?runs}; parallel=${3:?parallel}; device=${4:-}; jar=${5:-}
cd "$(dirname "$0")/.."
mkdir -p "$out"
[[ -n $jar ]] || jar=$(ls .gpu/lib/kiln-runtime-*.jar)
others=$(ls .gpu/lib/*.jar | grep -v '/kiln-runtime-' | tr '\n' ':')
limit=${SOAK_LIMIT:-30}
debugger=$(command -v gdb || command -v cuda-gdb || true)

record() { # the native state of a hung JVM: $1 pid, $2 folder
  local pid=$1 dir=$2
  mkdir -p "$dir"
  for task in /proc/"$pid"/task/*; do
    echo "== $(cat "$task/comm" 2>/dev/null) (tid ${task##*/}): wchan $(cat "$task/wchan" 2>/dev/null)"
    cat "$task/stack" 2>/dev/null
  done > "$dir/proc.txt"
  if [[ -n $debugger ]]; then
    timeout 120 "$debugger" -p "$pid" -batch -ex 'set pagination off' -ex 'thread apply all bt 30' \
      > "$dir/native-stacks.txt" 2>&1
  fi
}

one() { # one fresh JVM: $1 its number; prints "ok <ms>", "failed" or "hung"
  local k=$1 log="$out/run-$1.log"
  # shellcheck disable=SC2086
  java --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM \
    ${SOAK_FLAGS:-} ${device:+-Dkiln.device=$device} -cp "$jar:$others" dev.kiln.bench.host.StartupProbe \
    > "$log" 2>&1 &
  local pid=$! waited=0
  while kill -0 "$pid" 2>/dev/null && (( waited < limit * 10 )); do sleep 0.1; waited=$((waited + 1)); done
  if kill -0 "$pid" 2>/dev/null; then
    record "$pid" "$out/hang-$k"
    kill -9 "$pid"; wait "$pid" 2>/dev/null
    cp "$log" "$out/hang-$k/output.txt"
    echo hung
  elif wait "$pid" && grep -q 'open + first result' "$log"; then
    echo "ok $(sed -nE 's/.*result: ([0-9.]+) ms.*/\1/p' "$log")"
    rm -f "$log"
  else
    echo failed
  fi
}
export -f one record
export out jar others limit debugger device

seq "$runs" | xargs -P "$parallel" -I{} bash -c 'one {}' > "$out/results.txt"
ok=$(grep -c '^ok' "$out/results.txt"); hung=$(grep -c '^hung' "$out/results.txt"); failed=$(grep -c '^failed' "$out/results.txt")
median=$(grep '^ok' "$out/results.txt" | cut -d' ' -f2 | sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]}')
echo "start-up soak, ${device:-best device}, $parallel at a time, flags '${SOAK_FLAGS:-}': $runs runs, $ok finished" \
  "(median ${median:-none} ms), $hung hung, $failed failed"
