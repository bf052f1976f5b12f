#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// The float16 tensor-core product as a GLSL author would stage it, to find what the driver's
// cooperative matrices reach: a 128 x 128 block of c per workgroup of 8 subgroups (2 x 4, each 64 x
// 32 = 4 x 2 tiles), 32 columns of a and 32 rows of b at a time copied into workgroup memory with
// 16-byte loads (rows padded by 16 bytes), the tiles loaded from there. n a multiple of 128.
// Compiled by bench/glsl.sh through LWJGL's shaderc (Debian 12's glslc predates the extension).
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uvec4 a[]; }; // 8 halves each
layout(std430, set = 0, binding = 1) readonly buffer B { uvec4 b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; int n; };
const int DEPTH = 32;
const int STRIDE_A = DEPTH / 8 + 1; // a row of the A block, in uvec4s
const int STRIDE_B = 128 / 8 + 1;   // a k row of the B block, in uvec4s
shared uvec4 blockA[128 * STRIDE_A];
shared uvec4 blockB[DEPTH * STRIDE_B];
void main() {
  int self = int(gl_LocalInvocationIndex);
  int warpRow = int(gl_SubgroupID / 4) * 64;
  int warpColumn = int(gl_SubgroupID % 4) * 32;
  int firstRow = int(gl_WorkGroupID.y) * 128;
  int firstColumn = int(gl_WorkGroupID.x + firstGroup) * 128;
  int n8 = n / 8;
  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> sums[4][2];
  for (int i = 0; i < 4; i++) {
    for (int j = 0; j < 2; j++) {
      sums[i][j] = coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
    }
  }
  for (int k0 = 0; k0 < n; k0 += DEPTH) {
    for (int part = 0; part < 2; part++) {
      int index = self + part * 256;
      int row = index / 4;
      int quad = index % 4;
      blockA[row * STRIDE_A + quad] = a[(firstRow + row) * n8 + k0 / 8 + quad];
      int k = index / 16;
      int column = index % 16;
      blockB[k * STRIDE_B + column] = b[(k0 + k) * n8 + firstColumn / 8 + column];
    }
    barrier();
    for (int k = 0; k < DEPTH; k += 16) {
      coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> left[4];
      coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> right[2];
      for (int i = 0; i < 4; i++) {
        coopMatLoad(left[i], blockA, (warpRow + 16 * i) * STRIDE_A + k / 8, STRIDE_A,
            gl_CooperativeMatrixLayoutRowMajor);
      }
      for (int j = 0; j < 2; j++) {
        coopMatLoad(right[j], blockB, k * STRIDE_B + (warpColumn + 16 * j) / 8, STRIDE_B,
            gl_CooperativeMatrixLayoutRowMajor);
      }
      for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 2; j++) {
          sums[i][j] = coopMatMulAdd(left[i], right[j], sums[i][j]);
        }
      }
    }
    barrier();
  }
  for (int i = 0; i < 4; i++) {
    for (int j = 0; j < 2; j++) {
      coopMatStore(sums[i][j], c, (firstRow + warpRow + 16 * i) * n + firstColumn + warpColumn + 16 * j, n,
          gl_CooperativeMatrixLayoutRowMajor);
    }
  }
}
