#!/usr/bin/env bash
# The jars Kiln publishes hold what a user needs and nothing else, each with its sources and javadoc jars;
# they are reproducible (every entry carries project.build.outputTimestamp); each platform resolves its own
# LWJGL natives; publishing stops while a POM lacks <url> or <scm>. Run by Kiln's build (examples/pom.xml,
# verify) after the modules are packaged:
#   bash check-artifacts.sh <repository root> [offline=true|false, as the calling Maven runs]
set -euo pipefail
root=$(cd "${1:?usage: check-artifacts.sh <repository root> [offline]}" && pwd)
maven=("$root/mvnw" -q -B)
[[ ${2:-} == offline=true ]] && maven+=(-o)
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

check annotations META-INF/MANIFEST.MF dev/kiln/annotations/Kernel.class dev/kiln/annotations/FuseGroup.class \
  dev/kiln/abi/KernelSpec.class dev/kiln/abi/CpuFaults.class module-info.class
check runtime META-INF/MANIFEST.MF dev/kiln/Device.class dev/kiln/internal/Dispatch.class dev/kiln/Gpu.class \
  module-info.class META-INF/versions/22/dev/kiln/vulkan/DriverLoad.class
# the FFM version of DriverLoad is only seen by a JDK 22+ in a multi-release jar
manifest=$(cd "$(mktemp -d)" && "$jarbin" xf "$root/runtime/target/kiln-runtime-$version.jar" META-INF/MANIFEST.MF \
  && cat META-INF/MANIFEST.MF)
grep -q '^Multi-Release: true' <<<"$manifest" || fail "the runtime jar is not multi-release"
"$jarbin" tf "$root/runtime/target/kiln-runtime-$version-sources.jar" \
  | grep -qx META-INF/versions/22/dev/kiln/vulkan/DriverLoad.java || fail "the runtime's sources jar lacks its JDK 22 sources"

# <module> <entries its javadoc jar must hold...>: built without a warning (the build fails on one)
javadoc() {
  local module=$1; shift
  local jar="$root/$module/target/kiln-$module-$version-javadoc.jar"
  [[ -f $jar ]] || fail "no javadoc jar $jar"
  local entries
  entries=$("$jarbin" tf "$jar")
  for entry in index.html "$@"; do
    grep -qx "$entry" <<<"$entries" || fail "$jar lacks $entry"
  done
  ! grep -qE '/(backend|cpu|vulkan|access)/' <<<"$entries" || fail "$jar documents packages that are not exported"
}
javadoc annotations dev.kiln.annotations/dev/kiln/annotations/Kernel.html dev.kiln.annotations/dev/kiln/abi/KernelSpec.html
javadoc runtime dev.kiln.runtime/dev/kiln/Device.html dev.kiln.runtime/dev/kiln/internal/Dispatch.html
javadoc processor dev/kiln/processor/KilnProcessor.html

# <module> <module name> <lines its descriptor must show...>: exports are exactly those listed
descriptor() {
  local module=$1 name=$2; shift 2
  local described
  described=$("$jarbin" --describe-module --file "$root/$module/target/kiln-$module-$version.jar")
  grep -q "^$name@" <<<"$described" || fail "kiln-$module is not the module $name: $described"
  for line in "$@"; do
    grep -qx "$line" <<<"$described" || fail "module $name lacks '$line': $described"
  done
  local exports
  exports=$(grep -c '^exports\|^qualified exports' <<<"$described")
  [[ $exports -eq $(printf '%s\n' "$@" | grep -c '^exports\|^qualified exports') ]] \
    || fail "module $name exports more than it should: $described"
}
descriptor annotations dev.kiln.annotations "exports dev.kiln.annotations" \
  "exports dev.kiln.abi"
descriptor runtime dev.kiln.runtime "exports dev.kiln" "exports dev.kiln.internal" "exports dev.kiln.matrix" \
  "requires dev.kiln.annotations transitive"
check processor META-INF/MANIFEST.MF dev/kiln/processor/KilnProcessor.class \
  META-INF/services/javax.annotation.processing.Processor
service=$(cd "$(mktemp -d)" && "$jarbin" xf "$root/processor/target/kiln-processor-$version.jar" \
  META-INF/services/javax.annotation.processing.Processor && cat META-INF/services/javax.annotation.processing.Processor)
grep -qx dev.kiln.processor.KilnProcessor <<<"$service" || fail "the processor jar does not register KilnProcessor"
grep -q '<artifactId>kiln-runtime</artifactId>' "$root/bom/pom.xml" || fail "the BOM lacks kiln-runtime"
# what a repository such as Maven Central asks of every published POM (the BOM has no parent)
for pom in "$root/pom.xml" "$root/bom/pom.xml"; do
  for element in name description licenses developers; do
    grep -q "<$element>" "$pom" || fail "$pom has no <$element>"
  done
done
# The runtime's POM gives each user's project the LWJGL natives of its own platform (profiles that the
# OS activates): resolve examples/quickstart's dependencies as each platform would
for platform in Linux:amd64:natives-linux Linux:aarch64:natives-linux-arm64 MacOSX:x86_64:natives-macos \
    MacOSX:aarch64:natives-macos-arm64 Windows11:amd64:natives-windows Windows11:aarch64:natives-windows-arm64; do
  IFS=: read -r os arch classifier <<<"$platform"
  natives=$(MAVEN_OPTS="${MAVEN_OPTS:-} -Dos.name=$os -Dos.arch=$arch" "${maven[@]}" -f "$root/examples/quickstart/pom.xml" \
    dependency:list -DincludeGroupIds=org.lwjgl -DoutputFile=/dev/stdout 2>/dev/null | grep -o 'org\.lwjgl:[a-z-]*:jar:natives[a-z0-9-]*' \
    | sort | tr '\n' ' ')
  [[ $natives == "org.lwjgl:lwjgl-vma:jar:$classifier org.lwjgl:lwjgl:jar:$classifier " ]] \
    || fail "a project on $os $arch gets the natives '$natives', not $classifier"
done

# <url> and <scm> need the public repository, which Kiln does not have yet: until a POM has them,
# publishing it (-Prelease) must stop and say so
for pom in "$root/pom.xml" "$root/bom/pom.xml"; do
  grep -q '<scm>' "$pom" && continue
  refusal=$("${maven[@]}" -N -f "$pom" -Prelease validate 2>&1) && fail "-Prelease publishes $pom without <scm>"
  for element in url scm; do
    grep -q "has no <$element>. Fix: " <<<"$refusal" || fail "-Prelease on $pom does not name <$element>: $refusal"
  done
done
echo "check-artifacts.sh: annotations, runtime and processor jars complete, with sources and javadoc, reproducible;" \
  "module descriptors export only the API, dev.kiln.abi and dev.kiln.internal; each platform gets its LWJGL natives;" \
  "-Prelease refuses POMs without <url> and <scm>"
