#!/bin/bash
# Session 37's SPIR-V variants (docs/PERFORMANCE.md): spirv-opt from .ci/spirv-tools.sh's Debian sid
# unpacking (its wrappers in /usr/local/bin cover spirv-val and spirv-dis only).
T=/opt/kiln-spirv-tools-sid/usr
run() { "$T/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" --library-path "$T/lib/x86_64-linux-gnu" "$T/bin/$@"; }
# optimize.sh IN OUT [passes...]: spirv-opt a Kiln module, hiding SPV_KHR_float_controls from its allowlist
in=$1 out=$2; shift 2
d=$(mktemp -d)
spirv-dis --raw-id "$in" | grep -v 'OpExtension "SPV_KHR_float_controls"' > $d/a.dis
run spirv-as --target-env vulkan1.1 $d/a.dis -o $d/a.spv || exit 1
run spirv-opt --skip-validation "$@" $d/a.spv -o $d/b.spv || exit 1
spirv-dis --raw-id $d/b.spv | awk '/OpExtInstImport|OpMemoryModel/ && !done {print "OpExtension \"SPV_KHR_float_controls\""; done=1} {print}' > $d/b.dis
run spirv-as --target-env vulkan1.1 $d/b.dis -o "$out" || exit 1
spirv-val --target-env vulkan1.1 "$out" || exit 1
rm -rf $d
