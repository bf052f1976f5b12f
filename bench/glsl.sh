#!/usr/bin/env bash
# Recompiles the hand-written GLSL twins of the benchmarks (bench's resources dev/kiln/bench/glsl)
# with glslc -O and checks them with spirv-val. The .spv files are committed, so that the build and
# CI need no glslc; run this after editing a .comp file. The *.shaderc.comp twins (cooperative
# matrices) compile through LWJGL's shaderc (bench/tools/ShadercCompile.java; ./mvnw
# dependency:get -Dartifact=org.lwjgl:lwjgl-shaderc:3.4.3 and its natives-linux first).
set -euo pipefail
cd "$(dirname "$0")/../bench/src/main/resources/dev/kiln/bench/glsl"
for source in *.comp; do
  if [[ $source == *.shaderc.comp ]]; then # cooperative matrices: glslang newer than Debian 12's glslc, through LWJGL
    lwjgl=~/.m2/repository/org/lwjgl
    java --enable-native-access=ALL-UNNAMED -cp "$(printf '%s:' "$lwjgl"/lwjgl{,-shaderc}/3.4.3/*.jar)" \
      ../../../../../../../tools/ShadercCompile.java "$source" "${source%.shaderc.comp}.spv"
    spirv-val --target-env vulkan1.1 "${source%.shaderc.comp}.spv"
    continue
  fi
  glslc -O --target-env=vulkan1.1 -o "${source%.comp}.spv" "$source"
  spirv-val --target-env vulkan1.1 "${source%.comp}.spv"
done
echo "compiled $(ls *.comp | wc -l) GLSL twins"
