#!/usr/bin/env bash
# Recompiles the hand-written GLSL twins of the benchmarks (bench's resources dev/kiln/bench/glsl)
# with glslc -O and checks them with spirv-val. The .spv files are committed, so that the build and
# CI need no glslc; run this after editing a .comp file.
set -euo pipefail
cd "$(dirname "$0")/../bench/src/main/resources/dev/kiln/bench/glsl"
for source in *.comp; do
  glslc -O --target-env=vulkan1.1 -o "${source%.comp}.spv" "$source"
  spirv-val --target-env vulkan1.1 "${source%.comp}.spv"
done
echo "compiled $(ls *.comp | wc -l) GLSL twins"
