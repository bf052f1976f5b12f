#!/bin/bash
# Session 38: builds the measurement-only jars call2.sh puts first on the class path (not run: no
# machine came). Run from the repository root after ./mvnw install -DskipTests.
#   .gpu-check/hk   GemvLanes compiled by a processor with unpack-half.diff (Float.float16ToFloat
#                   lowered to GLSL.std.450 UnpackHalf2x16: exact for float16 subnormals only where
#                   the device keeps them, a NaN's bits the device's)
#   .gpu-check/hk32 the library with SixteenBits.half returning Float.float16ToFloat, by that processor
#   .gpu-check/hk16 the same with Tuning.GEMV_CHUNK_BYTES = 16
#   .gpu-check/sg   this head's Gemv classes (Gemv.halves folding in the subgroup)
set -euo pipefail
root=$PWD
git worktree add --detach /tmp/hk HEAD -q
git -C /tmp/hk apply "$root/docs/bench/2026-12-07-session38/unpack-half.diff"
(cd /tmp/hk && ./mvnw -B -q -o package -pl processor -DskipTests -Dspotless.check.skip=true)
(cd processor && ../mvnw -q -o dependency:build-classpath -Dmdep.outputFile=/tmp/pcp.txt -DincludeScope=runtime)
procs="/tmp/hk/processor/target/kiln-processor-0.1.0-SNAPSHOT.jar:$(cat /tmp/pcp.txt)"
rm -rf /tmp/hkc && mkdir -p /tmp/hkc .gpu-check/hk
javac -proc:full -processorpath "$procs" -cp "bench/target/kiln-bench-0.1.0-SNAPSHOT.jar:.gpu/lib/*" -d /tmp/hkc \
  bench/src/main/java/dev/kiln/bench/GemvLanes.java bench/src/main/java/dev/kiln/bench/GemvTwinBench.java
(cd /tmp/hkc && jar cf "$root/.gpu-check/hk/hk-bench.jar" dev/kiln/bench/GemvLanes*)
for v in hk32 hk16; do
  rm -rf /tmp/$v-src /tmp/$v-out && mkdir -p /tmp/$v-out .gpu-check/$v && cp -r library/src/main/java /tmp/$v-src
  sed -i -z 's/    float scaled = Float.intBitsToFloat[^}]*return Float.intBitsToFloat(Float.floatToRawIntBits(magnitude) | (bits \& 0x80000000));/    return Float.float16ToFloat(bits);/' \
    /tmp/$v-src/dev/kiln/library/SixteenBits.java
  [ $v = hk16 ] && sed -i 's/GEMV_CHUNK_BYTES = 32;/GEMV_CHUNK_BYTES = 16;/' /tmp/$v-src/dev/kiln/library/Tuning.java
  javac -proc:full -processorpath "$procs" -cp ".gpu/lib/*" -d /tmp/$v-out $(find /tmp/$v-src -name "*.java" ! -name module-info.java)
  (cd /tmp/$v-out && jar cf "$root/.gpu-check/$v/$v-library.jar" dev/kiln/library/Gemv* dev/kiln/library/SixteenBits* dev/kiln/library/Tuning*)
done
mkdir -p .gpu-check/sg && (cd library/target/classes && jar cf "$root/.gpu-check/sg/sg-library.jar" dev/kiln/library/Gemv*)
git worktree remove --force /tmp/hk
