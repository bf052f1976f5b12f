#!/usr/bin/env bash
# Incremental builds of a project that uses Kiln: on a copy of examples/quickstart, `mvnw compile`
# after renaming a kernel must drop its stale SPIR-V, twin method and launcher method and make the
# new ones; after deleting a kernel, and then its whole class, nothing of them may be left.
# Runs in Kiln's build (examples/pom.xml) after the quickstart's own build: bash incremental.sh <dir>
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="${1:?usage: incremental.sh <work folder>}"
rm -rf "$work"
cp -r "$here/quickstart" "$work"
rm -rf "$work/target" "$work/src/test"
cd "$work"
out=target/classes/com/example
launcher=target/generated-sources/annotations/com/example/DevelopKernels.java
compile() { "$here/../mvnw" -B -q compile; }
fail() { echo "incremental.sh: $*" >&2; exit 1; }
twin_has() { grep -q "kernel\$$1" "$out/Develop\$KilnCpu.class"; }

compile
[[ -f $out/Develop.saxpy.spv ]] || fail "no module for saxpy after the first build"
twin_has saxpy || fail "no twin for saxpy after the first build"

sed -i 's/static void saxpy(/static void axpy(/' src/main/java/com/example/Develop.java
compile
[[ ! -e $out/Develop.saxpy.spv ]] || fail "the renamed kernel's module is left: $out/Develop.saxpy.spv"
[[ -f $out/Develop.axpy.spv ]] || fail "no module for the renamed kernel"
grep -q "void axpy(" "$launcher" || fail "the launcher has no method for the renamed kernel"
! grep -q "void saxpy(" "$launcher" || fail "the launcher still has the old kernel's method"
twin_has axpy && ! twin_has saxpy || fail "the twins are stale after the rename"

perl -0pi -e 's/  \/\*\* \{\@code y = a \* x \+ y\}\. \*\/.*?\n  \}\n\n//s' src/main/java/com/example/Develop.java
grep -q "saxpy\|axpy" src/main/java/com/example/Develop.java && fail "the kernel was not deleted from the copy"
compile
[[ ! -e $out/Develop.axpy.spv ]] || fail "the deleted kernel's module is left"
! grep -q "axpy" "$launcher" || fail "the launcher still launches the deleted kernel"
! twin_has axpy || fail "the deleted kernel's twin is left"
[[ -f $out/Develop.develop.group.spv ]] || fail "the group's module went with the deleted kernel"

rm src/main/java/com/example/Develop.java
compile
left=$(find target/classes target/generated-sources -type f 2>/dev/null | grep -i develop || true)
[[ -z $left ]] || fail "files of the deleted class are left: $left"
echo "incremental.sh: renamed, deleted kernel and deleted class leave nothing stale"
