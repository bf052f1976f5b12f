#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_control_flow_attributes : require
// The ceiling of the driver's subgroup-scope cooperative matrices: the multiply-adds of a 128 x 128
// block per workgroup of 8 subgroups and all of k (the product's 2 n^3 operations over the grid),
// with each subgroup's WM A and WN B tiles loaded once, so that no memory traffic limits it. Its
// output is not the product. Defined by bench/glsl.sh (WM, WN: 8 subgroups cover 128 x 128).
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uvec4 a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { uvec4 b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; int n; };
const int ACROSS = 128 / (16 * WN);
void main() {
  int warpRow = int(gl_SubgroupID) / ACROSS * 16 * WM;
  int warpColumn = int(gl_SubgroupID) % ACROSS * 16 * WN;
  int firstRow = int(gl_WorkGroupID.y) * 128;
  int firstColumn = int(gl_WorkGroupID.x + firstGroup) * 128;
  int n8 = n / 8;
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> left[WM];
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> right[WN];
  [[unroll]] for (int i = 0; i < WM; i++) {
    coopMatLoad(left[i], a, (firstRow + warpRow + 16 * i) * n8, n8, gl_CooperativeMatrixLayoutRowMajor);
  }
  [[unroll]] for (int j = 0; j < WN; j++) {
    coopMatLoad(right[j], b, (firstColumn + warpColumn + 16 * j) / 8, n8, gl_CooperativeMatrixLayoutRowMajor);
  }
  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> sums[WM][WN];
  [[unroll]] for (int i = 0; i < WM; i++) {
    [[unroll]] for (int j = 0; j < WN; j++) {
      sums[i][j] = coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
    }
  }
  for (int k = 0; k < n; k += 16) {
    [[unroll]] for (int i = 0; i < WM; i++) {
      [[unroll]] for (int j = 0; j < WN; j++) {
        sums[i][j] = coopMatMulAdd(left[i], right[j], sums[i][j]);
      }
    }
  }
  [[unroll]] for (int i = 0; i < WM; i++) {
    [[unroll]] for (int j = 0; j < WN; j++) {
      coopMatStore(sums[i][j], c, (firstRow + warpRow + 16 * i) * n + firstColumn + warpColumn + 16 * j, n,
          gl_CooperativeMatrixLayoutRowMajor);
    }
  }
}
