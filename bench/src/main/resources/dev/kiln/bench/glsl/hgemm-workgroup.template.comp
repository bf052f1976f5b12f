#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// The float16 tensor-core product with matrices of workgroup scope (VK_NV_cooperative_matrix2): a BM
// x BN accumulator per workgroup of 256, BM x BK and BK x BN slices of a and b loaded through tensor
// layouts straight from the buffers, the staging left to the driver. Defined by bench/glsl.sh (BM,
// BN, BK); n a multiple of BM, BN and BK.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uvec4 a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { uvec4 b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; int n; };
void main() {
  uint size = uint(n);
  uint firstRow = gl_WorkGroupID.y * BM;
  uint firstColumn = (gl_WorkGroupID.x + firstGroup) * BN;
  tensorLayoutNV<2> square = createTensorLayoutNV(2);
  square = setTensorLayoutDimensionNV(square, size, size);
  coopmat<float, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator> sum =
      coopmat<float, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator>(0.0);
  for (uint k = 0; k < size; k += BK) {
    coopmat<float16_t, gl_ScopeWorkgroup, BM, BK, gl_MatrixUseA> left;
    coopMatLoadTensorNV(left, a, 0, sliceTensorLayoutNV(square, firstRow, BM, k, BK));
    coopmat<float16_t, gl_ScopeWorkgroup, BK, BN, gl_MatrixUseB> right;
    coopMatLoadTensorNV(right, b, 0, sliceTensorLayoutNV(square, k, BK, firstColumn, BN));
    sum = coopMatMulAdd(left, right, sum);
  }
  coopMatStoreTensorNV(sum, c, 0, sliceTensorLayoutNV(square, firstRow, BM, firstColumn, BN));
}
