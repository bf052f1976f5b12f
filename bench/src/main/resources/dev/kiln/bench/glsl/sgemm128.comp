#version 450
// Hand-written twin of dev.kiln.samples.BlockedMatrixMultiply.multiply for n x n matrices: a
// 128 x 128 block of c per workgroup of 16 x 16, an 8 x 8 tile per invocation (rows y + 16 i,
// columns x + 16 j) in registers, 8 columns of a and 8 rows of b at a time in shared memory; each
// entry fma-summed in k order.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { float b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; int n; };
shared float blockA[8 * 128];
shared float blockB[8 * 128];
void main() {
  int x = int(gl_LocalInvocationID.x);
  int y = int(gl_LocalInvocationID.y);
  int self = y * 16 + x;
  int firstRow = int(gl_WorkGroupID.y) * 128;
  int firstColumn = int(gl_WorkGroupID.x + firstGroup) * 128;
  float sums[64];
  for (int i = 0; i < 64; i++) {
    sums[i] = 0.0;
  }
  float rowA[8];
  float columnB[8];
  for (int k0 = 0; k0 < n; k0 += 8) {
    for (int part = 0; part < 4; part++) {
      int e = self + part * 256;
      int row = firstRow + e / 8;
      int k = k0 + e % 8;
      blockA[e % 8 * 128 + e / 8] = row < n && k < n ? a[row * n + k] : 0.0;
      int kb = k0 + e / 128;
      int column = firstColumn + e % 128;
      blockB[e] = kb < n && column < n ? b[kb * n + column] : 0.0;
    }
    barrier();
    for (int k = 0; k < 8; k++) {
      for (int i = 0; i < 8; i++) {
        rowA[i] = blockA[k * 128 + y + 16 * i];
        columnB[i] = blockB[k * 128 + x + 16 * i];
      }
      for (int i = 0; i < 8; i++) {
        for (int j = 0; j < 8; j++) {
          sums[i * 8 + j] = fma(rowA[i], columnB[j], sums[i * 8 + j]);
        }
      }
    }
    barrier();
  }
  for (int i = 0; i < 8; i++) {
    for (int j = 0; j < 8; j++) {
      int row = firstRow + y + 16 * i;
      int column = firstColumn + x + 16 * j;
      if (row < n && column < n) {
        c[row * n + column] = sums[i * 8 + j];
      }
    }
  }
}
