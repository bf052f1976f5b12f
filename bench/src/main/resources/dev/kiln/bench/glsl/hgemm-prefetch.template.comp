#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_control_flow_attributes : require
// The float16 tensor-core product staged in workgroup memory, with the next stage's loads from the
// buffers issued into registers before this stage's products, so that they overlap. A BM x BN block
// of c per workgroup of 8 subgroups, each WM x WN tiles of 16 x 16; DEPTH of k per stage; rows of
// the staged blocks padded by 16 bytes. Defined by bench/glsl.sh (BM, BN, WM, WN, DEPTH); n a
// multiple of BM, BN and DEPTH.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uvec4 a[]; }; // 8 halves each
layout(std430, set = 0, binding = 1) readonly buffer B { uvec4 b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; int n; };
const int QUADS_A = DEPTH / 8;        // uvec4s per row of the A block
const int QUADS_B = BN / 8;           // uvec4s per k row of the B block
const int STRIDE_A = QUADS_A + 1;
const int STRIDE_B = QUADS_B + 1;
const int COPIES_A = BM * QUADS_A / 256; // uvec4s each invocation moves per stage
const int COPIES_B = DEPTH * QUADS_B / 256;
const int ACROSS = BN / (16 * WN);    // subgroups along a row of the block
shared uvec4 blockA[BM * STRIDE_A];
shared uvec4 blockB[DEPTH * STRIDE_B];
void main() {
  int self = int(gl_LocalInvocationIndex);
  int warpRow = int(gl_SubgroupID) / ACROSS * 16 * WM;
  int warpColumn = int(gl_SubgroupID) % ACROSS * 16 * WN;
  int firstRow = int(gl_WorkGroupID.y) * BM;
  int firstColumn = int(gl_WorkGroupID.x + firstGroup) * BN;
  int n8 = n / 8;
  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> sums[WM][WN];
  [[unroll]] for (int i = 0; i < WM; i++) {
    [[unroll]] for (int j = 0; j < WN; j++) {
      sums[i][j] = coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
    }
  }
  uvec4 nextA[COPIES_A];
  uvec4 nextB[COPIES_B];
  [[unroll]] for (int copy = 0; copy < COPIES_A; copy++) {
    int index = self + copy * 256;
    nextA[copy] = a[(firstRow + index / QUADS_A) * n8 + index % QUADS_A];
  }
  [[unroll]] for (int copy = 0; copy < COPIES_B; copy++) {
    int index = self + copy * 256;
    nextB[copy] = b[index / QUADS_B * n8 + firstColumn / 8 + index % QUADS_B];
  }
  for (int k0 = 0; k0 < n; k0 += DEPTH) {
    barrier(); // the last stage's tile loads are done
    [[unroll]] for (int copy = 0; copy < COPIES_A; copy++) {
      int index = self + copy * 256;
      blockA[index / QUADS_A * STRIDE_A + index % QUADS_A] = nextA[copy];
    }
    [[unroll]] for (int copy = 0; copy < COPIES_B; copy++) {
      int index = self + copy * 256;
      blockB[index / QUADS_B * STRIDE_B + index % QUADS_B] = nextB[copy];
    }
    barrier();
    if (k0 + DEPTH < n) {
      int k8 = (k0 + DEPTH) / 8;
      [[unroll]] for (int copy = 0; copy < COPIES_A; copy++) {
        int index = self + copy * 256;
        nextA[copy] = a[(firstRow + index / QUADS_A) * n8 + k8 + index % QUADS_A];
      }
      [[unroll]] for (int copy = 0; copy < COPIES_B; copy++) {
        int index = self + copy * 256;
        nextB[copy] = b[(k0 + DEPTH + index / QUADS_B) * n8 + firstColumn / 8 + index % QUADS_B];
      }
    }
    [[unroll]] for (int k = 0; k < DEPTH; k += 16) {
      coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> left[WM];
      [[unroll]] for (int i = 0; i < WM; i++) {
        coopMatLoad(left[i], blockA, (warpRow + 16 * i) * STRIDE_A + k / 8, STRIDE_A, gl_CooperativeMatrixLayoutRowMajor);
      }
      [[unroll]] for (int j = 0; j < WN; j++) {
        coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> right;
        coopMatLoad(right, blockB, k * STRIDE_B + (warpColumn + 16 * j) / 8, STRIDE_B, gl_CooperativeMatrixLayoutRowMajor);
        [[unroll]] for (int i = 0; i < WM; i++) {
          sums[i][j] = coopMatMulAdd(left[i], right, sums[i][j]);
        }
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
