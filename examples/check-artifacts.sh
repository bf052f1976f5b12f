#!/usr/bin/env bash
# The jars Kiln publishes hold what a user needs and nothing else, each with its sources jar, and
# are reproducible (every entry carries project.build.outputTimestamp). Run by Kiln's build
# (examples/pom.xml, verify) after the modules are packaged: bash check-artifacts.sh <repository root>
set -euo pipefail
root="${1:?usage: check-artifacts.sh <repository root>}"
version=0.1.0-SNAPSHOT
fail() { echo "check-artifacts.sh: $*" >&2; exit 1; }
jarbin="${JAVA_HOME:+$JAVA_HOME/bin/}jar"

# <module> <entries that must be there...>
check() {
  local module=$1; shift
  local jar="$root/$module/target/kiln-$module-$version.jar"
  local sources="$root/$module/target/kiln-$module-$version-sources.jar"
  [[ -f $jar ]] || fail "no $jar"
  [[ -f $sources ]] || fail "no sources jar $sources"
  local entries
  entries=$("$jarbin" tf "$jar")
  for entry in "$@"; do
    grep -qx "$entry" <<<"$entries" || fail "$jar lacks $entry"
  done
  ! grep -qE '(Test|Tests)\.class$|^corpus/|\.spvasm$' <<<"$entries" || fail "$jar holds test files"
  local source=${2%.class}.java
  "$jarbin" tf "$sources" | grep -qx "$source" || fail "$sources lacks $source"
  local times
  times=$("$jarbin" tvf "$jar" | awk '{print $2, $3, $4, $5, $6, $7}' | sort -u | wc -l)
  [[ $times -eq 1 ]] || fail "$jar's entries carry $times different times: not reproducible"
}

check annotations META-INF/MANIFEST.MF dev/kiln/annotations/Kernel.class dev/kiln/annotations/FuseGroup.class
check runtime META-INF/MANIFEST.MF dev/kiln/Device.class dev/kiln/cpu/CpuFaults.class dev/kiln/Gpu.class
check processor META-INF/MANIFEST.MF dev/kiln/processor/KilnProcessor.class \
  META-INF/services/javax.annotation.processing.Processor
service=$(cd "$(mktemp -d)" && "$jarbin" xf "$root/processor/target/kiln-processor-$version.jar" \
  META-INF/services/javax.annotation.processing.Processor && cat META-INF/services/javax.annotation.processing.Processor)
grep -qx dev.kiln.processor.KilnProcessor <<<"$service" || fail "the processor jar does not register KilnProcessor"
grep -q '<artifactId>kiln-runtime</artifactId>' "$root/bom/pom.xml" || fail "the BOM lacks kiln-runtime"
echo "check-artifacts.sh: annotations, runtime and processor jars complete, with sources, reproducible"
