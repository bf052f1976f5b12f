#!/usr/bin/env bash
# Fills .gpu/lib (made by ../shared/gpu-bundle.sh .gpu) with Kiln's jars, their dependencies, the
# test classes and JUnit's console launcher, so that the device machine can run the sample, the
# benchmarks and the Vulkan tests with no JDK or Maven there. Run after `./mvnw install`.
set -euo pipefail
cd "$(dirname "$0")/.."
jar=$(ls -d /usr/lib/jvm/*/bin/jar | sort -V | tail -1)
rm -rf .gpu/lib && mkdir -p .gpu/lib
version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -1)
for module in annotations runtime library samples bench llama; do # the classes only, not the sources and javadoc jars
  cp "$module/target/kiln-$module-$version.jar" .gpu/lib/
done
(cd samples && ../mvnw -q dependency:copy-dependencies -DincludeScope=runtime -DexcludeGroupIds=dev.kiln \
  -DoutputDirectory=../.gpu/lib)
(cd llama && ../mvnw -q dependency:copy-dependencies -DincludeScope=runtime -DincludeGroupIds=com.google.code.gson \
  -DoutputDirectory=../.gpu/lib) # the llama module's JSON reader
# JMH, for the host benchmarks; in the reactor, since the samples' jar is not installed
./mvnw -q -o -pl bench -am package -DskipTests dependency:copy-dependencies -DincludeScope=runtime \
  -DincludeGroupIds=org.openjdk.jmh,net.sf.jopt-simple,org.apache.commons -DoutputDirectory="$PWD/.gpu/lib"
(cd samples && ../mvnw -q dependency:copy -Dartifact=org.junit.platform:junit-platform-console-standalone:1.14.1 \
  -DoutputDirectory=../.gpu/lib)
(cd samples && ../mvnw -q dependency:copy -Dartifact=org.ow2.asm:asm:9.10.1 -DoutputDirectory=../.gpu/lib) # the fuzzer's FlushingTwin
"$jar" cf .gpu/lib/samples-tests.jar -C samples/target/test-classes .
"$jar" cf .gpu/lib/runtime-tests.jar -C runtime/target/test-classes .
"$jar" cf .gpu/lib/library-tests.jar -C library/target/test-classes .
"$jar" cf .gpu/lib/llama-tests.jar -C llama/target/test-classes .
du -sh .gpu
