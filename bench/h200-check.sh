#!/usr/bin/env bash
# Kiln's correctness on the GPU machine, in one device call: the samples', the library's and the
# llama module's device tests (the corpus, fusion, accumulations, roundings, the Llama model, ...),
# the differential fuzz of N random valid kernels against the CPU backend and plain Java, and the
# random fusion groups (1-D and over row-major images) against their arms. Run it on every change
# to code generation.
#
# Here (after ./mvnw install -DskipTests), make the pack, which the device call carries:
#   bash bench/h200-check.sh pack            # KILN_CHECK_KERNELS (2000), KILN_CHECK_SEED (20261201)
# There (device call with carry [".gpu-check"]):
#   bash bench/h200-check.sh run "$OUT"      # prints one summary line per part; logs into $OUT
# Each part's time limit in seconds: KILN_CHECK_TESTS_S (300; 0 runs no device tests), KILN_CHECK_FUZZ_S,
# KILN_CHECK_FUSION_S, KILN_CHECK_CORPUS_S. The device tests' first half took about 130 s on an H100 on 2026-12-08
# (call 1c of docs/bench/2026-12-07-session46), so a limit under 150 s cuts it off and leaves no summary.
# The pack holds the JRE, the Vulkan loader packages and the jars of ../shared/gpu-bundle.sh and
# bench/gpu-lib.sh, and the fuzz kernels and the ported corpora compiled here (the GPU machine has
# no javac), xz-compressed to stay within the device tool's 64 MiB. KILN_CHECK_EXTRA names more files to pack (under extra/).
set -euo pipefail
cd "$(dirname "$0")/.."
kernels=${KILN_CHECK_KERNELS:-2000}
seed=${KILN_CHECK_SEED:-20261201}
# Not run there: tests that compile kernels as they run (the GPU machine has no javac)
# (CpuTwinTest, on the CPU alone, reads the corpus as a folder of classes, not from a jar;
# DescriptionsTest, WorkgroupMemoryTest and PrivateIndicesTest read the modules and descriptions from
# target/classes).
not_on_device='.*(Descriptions|WorkgroupMemory|PrivateIndices|HeldOutCorpus|ExpressionProperty|OddKernelFuzz|RandomFusion|StartupOverlap|VectorizedCorpus|PipelineCache|KernelFuzz|CpuTwin)Test'

pack() {
  [[ -x .gpu/jre/bin/java ]] || bash ../shared/gpu-bundle.sh .gpu
  bash bench/gpu-lib.sh > /dev/null
  local work
  work=$(mktemp -d)
  (cd samples && ../mvnw -B -o -q surefire:test@default-test -Dtest=KernelFuzzTest -Dkiln.fuzzDir="$work/fuzz" \
    -Dkiln.fuzzCompileOnly=true -Dkiln.fuzzKernels="$kernels" -Dkiln.fuzzSeed="$seed")
  (cd samples && ../mvnw -B -o -q surefire:test@default-test -Dtest=RandomFusionTest -Dkiln.fusionDir="$work/fusion")
  (cd samples && ../mvnw -B -o -q surefire:test@default-test -Dtest=HeldOutCorpusTest -Dkiln.corpusDir="$work/corpus" \
    -Dkiln.corpusCompileOnly=true)
  local jar
  jar=$(ls -d /usr/lib/jvm/*/bin/jar | sort -V | tail -1)
  mkdir -p "$work/stage/fuzz" "$work/stage/extra" "$work/stage/fusion" "$work/stage/corpus"
  for corpus in heldout ports; do "$jar" cf0 "$work/stage/corpus/$corpus.jar" -C "$work/corpus/$corpus" "$corpus"; done
  "$jar" cf0 "$work/stage/fuzz/valid.jar" -C "$work/fuzz" fuzz # stored: xz compresses the whole
  "$jar" cf0 "$work/stage/fusion/second.jar" -C "$work/fusion/second" fuzz
  cp "$work/fusion/refused.txt" "$work/stage/fusion/"
  echo "$kernels $seed" > "$work/stage/fuzz/run"
  # the device tests by name: the JRE made for the GPU machine cannot scan jars (no jdk.zipfs)
  (cd samples/target/test-classes && find dev/kiln/samples -name '*Test.class'; cd ../../../library/target/test-classes \
    && find dev/kiln/library -name '*Test.class') | sort | sed 's/\.class$//; s|/|.|g' \
    | grep -vxE "$not_on_device" > "$work/stage/tests.txt"
  echo dev.kiln.llama.gpu.DeviceModelTest >> "$work/stage/tests.txt" # the llama module's one test on a device
  for extra in ${KILN_CHECK_EXTRA:-}; do cp "$extra" "$work/stage/extra/"; done
  cp -r .gpu "$work/stage/.gpu"
  # the host benchmarks' jars: the check does not run them, and the pack must stay within 64 MiB
  rm -f "$work"/stage/.gpu/lib/{jmh-core,jopt-simple,commons-math3,kiln-bench}-*.jar
  mkdir -p .gpu-check
  tar -C "$work/stage" -cf - . | xz -T0 -6 > .gpu-check/pack.tar.xz
  rm -rf "$work"
  echo "h200-check: .gpu-check/pack.tar.xz ($(du -h .gpu-check/pack.tar.xz | cut -f1)), $kernels fuzz kernels of seed $seed"
}

run() {
  local out=${1:?out folder} root=/tmp/kiln-check
  mkdir -p "$out" "$root"
  tar -C "$root" -xJf .gpu-check/pack.tar.xz
  # shellcheck disable=SC1091
  source "$root/.gpu/env.sh"
  # A part that runs past its time gets SIGQUIT first, so that its log ends with the JVM's thread
  # dump (which kernel it was at), then SIGKILL: a JVM ended by SIGTERM crashed in NVIDIA's driver
  # as it exited (docs/PERFORMANCE.md), and a crash leaves its report with the outputs.
  local lib="$root/.gpu/lib" jvm=(java -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM
    -XX:ErrorFile="$out/hs_err_%p.log")
  read -r kernels seed < "$root/fuzz/run"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt" 2>&1 || true
  # in two JVMs: NVIDIA's driver (580) refused a process's Vulkan instances after some hundred
  # devices opened and closed (VK_ERROR_INCOMPATIBLE_DRIVER for the last three test classes)
  split -n l/2 "$root/tests.txt" "$root/tests-part-"
  local part
  [[ ${KILN_CHECK_TESTS_S:-300} == 0 ]] && rm "$root"/tests-part-* # KILN_CHECK_TESTS_S=0: no device tests
  for part in "$root"/tests-part-*; do
    [[ -f $part ]] || continue
    local selected=()
    while read -r test; do selected+=(--select-class "$test"); done < "$part"
    timeout -s QUIT -k 15 "${KILN_CHECK_TESTS_S:-300}" "${jvm[@]}" -cp "$lib/*" org.junit.platform.console.ConsoleLauncher execute --details=tree \
      --disable-banner "${selected[@]}" > "$out/device-tests-${part##*-}.txt" 2>&1 || true
    local summary
    summary=$(grep -E '(tests|containers) (successful|failed|skipped|aborted)' "$out/device-tests-${part##*-}.txt" \
      | tr -s ' ' | tr '\n' ' ')
    echo "device tests ${part##*-}: ${summary:-no summary: ran past its ${KILN_CHECK_TESTS_S:-300} s or ended early, see device-tests-${part##*-}.txt}"
  done
  # The fuzz in parts, one process each, side by side: on a machine whose driver has not compiled
  # them before, each kernel's pipeline takes about 0.2 s to build (docs/PERFORMANCE.md)
  local parts=${KILN_CHECK_FUZZ_PARTS:-4} part
  for ((part = 0; part < parts; part++)); do
    timeout -s QUIT -k 15 "${KILN_CHECK_FUZZ_S:-200}" "${jvm[@]}" -Dkiln.fuzzDir="$root/fuzz" -Dkiln.fuzzKernels="$kernels" \
      -Dkiln.fuzzSeed="$seed" -Dkiln.fuzzRange="$((part * kernels / parts))-$(((part + 1) * kernels / parts - 1))" \
      -cp "$lib/*" org.junit.platform.console.ConsoleLauncher execute --details=summary --disable-banner \
      --select-class dev.kiln.samples.fuzz.KernelFuzzTest > "$out/fuzz-$part.txt" 2>&1 &
  done
  wait
  for ((part = 0; part < parts; part++)); do
    echo "fuzz part $part: $(grep -E '^kernel fuzzer' "$out/fuzz-$part.txt" || echo "no summary, see fuzz-$part.txt")"
  done
  timeout -s QUIT -k 15 "${KILN_CHECK_FUSION_S:-150}" "${jvm[@]}" -Dkiln.fusionDir="$root/fusion" \
    -cp "$lib/*" org.junit.platform.console.ConsoleLauncher execute --details=summary --disable-banner \
    --select-class dev.kiln.samples.fusion.RandomFusionTest > "$out/fusion.txt" 2>&1 || true
  timeout -s QUIT -k 15 "${KILN_CHECK_CORPUS_S:-120}" "${jvm[@]}" -Dkiln.corpusDir="$root/corpus" \
    -cp "$lib/*" org.junit.platform.console.ConsoleLauncher execute --details=summary --disable-banner \
    --select-class dev.kiln.samples.corpus.HeldOutCorpusTest > "$out/corpus.txt" 2>&1 || true
  echo "corpora: $(grep -E 'corpus on|tests (successful|failed)' "$out/corpus.txt" | tr -s ' ' | tr '\n' ' ')"
  echo "fusion: $(grep -E '^random fusion|tests (successful|failed)' "$out/fusion.txt" | tr -s ' ' | tr '\n' ' ')"
}

case "${1:-}" in
  pack) pack ;;
  run) run "${2:-}" ;;
  *) echo "usage: bench/h200-check.sh pack | run <out folder>" >&2; exit 2 ;;
esac
