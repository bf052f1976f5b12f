#!/usr/bin/env bash
# Issue 29's measurements on the GPU machine, in two device calls that follow each other while the
# machine is held (what the first unpacks under /tmp/kiln-spark stays for the second):
#   a) the device listing (with the driver's device groups), and SplitBench: launches on Java arrays
#      split across devices (the GPU alone, the GPU with the CPU backend, all GPUs where there are
#      several) against the unsplit launch, every result checked against it; then again with
#      -Dkiln.memory=staging (no mapped device memory) at the largest size;
#   b) DevelopJobBench: the Spark sample job in local mode on all cores, plain Spark against Kiln.
# Spark's jars (300 MB) and a JRE with the modules Spark needs do not fit one call's 64 MiB, so the
# pack holds only the classes a traced run of the job loaded here (whole packages of spark-core,
# whose timers load classes later), and the JRE goes with the first call.
#
# Here (after ./mvnw install -DskipTests and the spark module's tests, which make
# spark/target/spark-home):   bash bench/spark-h200.sh pack
# There: call 1 with carry [".gpu-spark-a"]: bash bench/spark-h200.sh run-a "$OUT" [log2 sizes]
#        call 2 with carry [".gpu-spark-b"]: bash bench/spark-h200.sh run-b "$OUT" [pixels...]
set -euo pipefail
cd "$(dirname "$0")/.."
there=/tmp/kiln-spark
spark_flags=(--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED)
kiln_flags=(--enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM)

pack() {
  local home=spark/target/spark-home/jars work jdk
  [[ -d $home ]] || { echo "no $home: run the spark module's tests first" >&2; exit 1; }
  [[ -d .gpu/gl ]] || bash ../shared/gpu-bundle.sh .gpu
  bash bench/gpu-lib.sh > /dev/null
  jdk=$(ls -d /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/*25* 2>/dev/null | head -1)
  work=$(mktemp -d)
  # the trace: which classes the job loads (a short run, and one long enough for Spark's timers)
  for run in "1048576 3" "4194304 11"; do
    "$jdk/bin/java" "${kiln_flags[@]}" "${spark_flags[@]}" -Xlog:class+load=info:file="$work/loaded-${run%% *}.txt" \
      -cp "$home/*" dev.kiln.spark.DevelopJobBench 'local[*]' ${run% *} 16 ${run#* } > /dev/null 2>&1
  done
  mkdir -p "$work/a/lib" "$work/b"
  python3 bench/spark-trim.py "$work/loaded-1048576.txt,$work/loaded-4194304.txt" "$work/b/jars" \
    $(ls "$home"/*.jar | grep -v '/kiln-\|/lwjgl')
  "$jdk/bin/jlink" --add-modules java.base,java.logging,java.management,jdk.jfr,jdk.management,jdk.unsupported,java.xml,java.naming,java.sql,jdk.security.auth,java.security.jgss,jdk.management.jfr,jdk.localedata,java.scripting,java.desktop \
    --include-locales=en --strip-debug --no-man-pages --no-header-files --compress=zip-9 --output "$work/a/jre"
  cp .gpu/lib/kiln-{annotations,runtime,samples,bench}-*.jar .gpu/lib/lwjgl*.jar "$work/a/lib/"
  cp -r .gpu/gl "$work/a/gl"
  rm -rf .gpu-spark-a .gpu-spark-b && mkdir -p .gpu-spark-a .gpu-spark-b
  tar cf - -C "$work/a" . | xz -3 -T0 > .gpu-spark-a/a.tar.xz
  tar cf - -C "$work/b" . | xz -3 -T0 > .gpu-spark-b/b.tar.xz
  rm -rf "$work"
  du -h .gpu-spark-a/a.tar.xz .gpu-spark-b/b.tar.xz
}

# The Vulkan loader where the machine has none (as ../shared/gpu-bundle.sh's env.sh does).
vulkan_loader() {
  if ! ldconfig -p | grep -q 'libvulkan.so.1 '; then
    for deb in "$there"/gl/*.deb; do dpkg -x "$deb" /; done
    ldconfig
  fi
  for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json; do
    if [[ -f $icd && -z ${VK_DRIVER_FILES:-} ]]; then export VK_DRIVER_FILES=$icd; fi
  done
}

run_a() {
  local out=$1; shift
  rm -rf "$there" && mkdir -p "$there" "$out" && xz -dc .gpu-spark-a/a.tar.xz | tar xf - -C "$there"
  vulkan_loader
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1 || true
  "$there/jre/bin/java" "${kiln_flags[@]}" -cp "$there/lib/*" dev.kiln.Devices > "$out/devices.txt" 2>&1 || true
  timeout -s KILL 400 "$there/jre/bin/java" "${kiln_flags[@]}" -cp "$there/lib/*" dev.kiln.bench.SplitBench "$out" "$@" \
    2>&1 | tee "$out/split.log"
  # every array in device memory reached by transfers only (no mapping across the bus), at the largest size
  mkdir -p "$out/unmapped"
  timeout -s KILL 150 "$there/jre/bin/java" "${kiln_flags[@]}" -Dkiln.memory=staging -cp "$there/lib/*" \
    dev.kiln.bench.SplitBench "$out/unmapped" "${@: -1}" 2>&1 | tee "$out/unmapped/split.log"
}

run_b() {
  local out=$1; shift
  [[ -x $there/jre/bin/java ]] || { echo "no $there/jre: run-a first, on the same machine" >&2; exit 1; }
  mkdir -p "$out" && xz -dc .gpu-spark-b/b.tar.xz | tar xf - -C "$there"
  vulkan_loader
  local n
  for n in "${@:-16777216}"; do
    timeout -s KILL 280 "$there/jre/bin/java" "${kiln_flags[@]}" "${spark_flags[@]}" -cp "$there/jars/*:$there/lib/*" \
      dev.kiln.spark.DevelopJobBench "local[*]" "$n" 16 11 2>&1 | grep -v '^WARNING' | tee -a "$out/spark.log"
  done
}

case "${1:-}" in
  pack) pack ;;
  run-a) shift; run_a "$@" ;;
  run-b) shift; run_b "$@" ;;
  *) echo "usage: $0 pack | run-a OUT [log2 sizes] | run-b OUT [pixels...]" >&2; exit 2 ;;
esac
