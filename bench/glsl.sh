#!/usr/bin/env bash
# Recompiles the hand-written GLSL twins of the benchmarks (bench's resources dev/kiln/bench/glsl)
# with glslc -O and checks them with spirv-val. The .spv files are committed, so that the build and
# CI need no glslc; run this after editing a .comp file. The *.shaderc.comp twins (cooperative
# matrices) and the variants of the *.template.comp files (below) compile through LWJGL's shaderc
# (bench/tools/ShadercCompile.java; ./mvnw dependency:get -Dartifact=org.lwjgl:lwjgl-shaderc:3.4.3
# and its natives-linux first).
set -euo pipefail
cd "$(dirname "$0")/../bench/src/main/resources/dev/kiln/bench/glsl"
# shaderc <source> <module> [NAME=VALUE ...]: glslang newer than Debian 12's glslc (cooperative matrices), through LWJGL
shaderc() {
  local lwjgl=~/.m2/repository/org/lwjgl
  java --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM -cp "$(printf '%s:' "$lwjgl"/lwjgl{,-shaderc}/3.4.3/*.jar)" \
    ../../../../../../../tools/ShadercCompile.java "$@"
  spirv-val --target-env vulkan1.3 "$2" # .ci/spirv-tools.sh installs one that knows cooperative matrix 2
}
# The templates' variants (module, defines), each timed by GemmBench under its name
shaderc hgemm-prefetch.template.comp hgemm128pf.spv BM=128 BN=128 WM=4 WN=2 DEPTH=32
shaderc hgemm-prefetch.template.comp hgemm128pf64.spv BM=128 BN=128 WM=4 WN=2 DEPTH=64
shaderc hgemm-prefetch.template.comp hgemm128x256pf.spv BM=128 BN=256 WM=4 WN=4 DEPTH=32
shaderc hgemm-prefetch.template.comp hgemm256x128pf.spv BM=256 BN=128 WM=4 WN=4 DEPTH=32
shaderc hgemm-peak.template.comp hgemmpeak4x2.spv WM=4 WN=2
shaderc hgemm-peak.template.comp hgemmpeak4x4.spv WM=4 WN=4
shaderc hgemm-workgroup.template.comp hgemmwg128.spv BM=128 BN=128 BK=32
shaderc hgemm-workgroup.template.comp hgemmwg128x256.spv BM=128 BN=256 BK=32
shaderc hgemm-workgroup.template.comp hgemmwg256x128.spv BM=256 BN=128 BK=32
shaderc hgemm-workgroup.template.comp hgemmwg128k64.spv BM=128 BN=128 BK=64
# The float16 GEMV's fast twins (GemvTwinBench): UNROLL words in flight a lane, RPW rows a warp
for variant in "1 1" "2 1" "4 1" "1 2"; do
  set -- $variant
  glslc -O --target-env=vulkan1.1 -DUNROLL=$1 -DRPW=$2 -o "gemvh_u$1r$2.spv" gemvh.template.comp
  spirv-val --target-env vulkan1.1 "gemvh_u$1r$2.spv"
done
# The Java-order twin with the library's float16 decode in pieces (GemvTwinBench)
for variant in "0 1" "1 0" "1 1"; do
  set -- $variant
  glslc -O --target-env=vulkan1.1 -DCHECK=$1 -DDECODE=$2 -o "gemvhjava_c$1d$2.spv" gemvhjava.template.comp
  spirv-val --target-env vulkan1.1 "gemvhjava_c$1d$2.spv"
done
# ... and with the float controls every Kiln module declares (fp32 denormals, signed zeros, infinities
# and NaNs preserved), which glslc does not write: added to gemvhjava.spv's disassembly
glslc -O --target-env=vulkan1.1 -o gemvhjava.spv gemvhjava.comp
spirv-dis gemvhjava.spv | sed -e 's/^\( *\)OpCapability Shader$/&\n\1OpCapability SignedZeroInfNanPreserve\n\1OpCapability DenormPreserve/' \
  -e '/= OpExtInstImport/i OpExtension "SPV_KHR_float_controls"' \
  -e 's/^\( *\)OpExecutionMode \(%[A-Za-z0-9_]*\) LocalSize .*$/&\n\1OpExecutionMode \2 SignedZeroInfNanPreserve 32\n\1OpExecutionMode \2 DenormPreserve 32/' \
  | spirv-as --target-env vulkan1.1 -o gemvhjava_fc.spv -
spirv-val --target-env vulkan1.1 gemvhjava_fc.spv
for source in *.comp; do
  if [[ $source == *.template.comp ]]; then
    continue
  fi
  if [[ $source == *.shaderc.comp ]]; then
    shaderc "$source" "${source%.shaderc.comp}.spv"
    continue
  fi
  glslc -O --target-env=vulkan1.1 -o "${source%.comp}.spv" "$source"
  spirv-val --target-env vulkan1.1 "${source%.comp}.spv"
done
echo "compiled $(ls *.spv | wc -l) GLSL twins"
