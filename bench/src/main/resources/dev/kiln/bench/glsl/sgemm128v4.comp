#version 450
// BlockedMatrixMultiply.multiply as a GLSL author tuning by hand would write it: the same 128 x 128
// block and 8 x 8 tile per invocation, but the tile contiguous (rows 8 y + i, columns 8 x + j)
// and every access 16 bytes wide: vec4 loads of a and b and from shared memory, vec4 stores of c.
// For n a multiple of 128 only (the benchmark's sides); fma-summed in k order like the others.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { vec4 b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer C { vec4 c[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; int n; };
shared vec4 blockA[8 * 32]; // [k][row / 4]
shared vec4 blockB[8 * 32]; // [k][column / 4]
void main() {
  int x = int(gl_LocalInvocationID.x);
  int y = int(gl_LocalInvocationID.y);
  int self = y * 16 + x;
  int firstRow = int(gl_WorkGroupID.y) * 128;
  int firstColumn = int(gl_WorkGroupID.x + firstGroup) * 128;
  int n4 = n / 4;
  vec4 sums[16]; // [i][j / 4]
  for (int i = 0; i < 16; i++) {
    sums[i] = vec4(0.0);
  }
  int rowOfA = self / 2;
  int kOfA = self % 2 * 4;
  int kOfB = self / 32;
  int columnOfB = self % 32;
  for (int k0 = 0; k0 < n; k0 += 8) {
    vec4 fromA = a[(firstRow + rowOfA) * n4 + (k0 + kOfA) / 4];
    // the four values of fromA go to four k rows of blockA, in the vec4 that holds rowOfA
    // (scalar stores into a vec4 array: component rowOfA % 4)
    blockA[(kOfA + 0) * 32 + rowOfA / 4][rowOfA % 4] = fromA.x;
    blockA[(kOfA + 1) * 32 + rowOfA / 4][rowOfA % 4] = fromA.y;
    blockA[(kOfA + 2) * 32 + rowOfA / 4][rowOfA % 4] = fromA.z;
    blockA[(kOfA + 3) * 32 + rowOfA / 4][rowOfA % 4] = fromA.w;
    blockB[kOfB * 32 + columnOfB] = b[(k0 + kOfB) * n4 + firstColumn / 4 + columnOfB];
    barrier();
    for (int k = 0; k < 8; k++) {
      vec4 a0 = blockA[k * 32 + 2 * y];
      vec4 a1 = blockA[k * 32 + 2 * y + 1];
      vec4 b0 = blockB[k * 32 + 2 * x];
      vec4 b1 = blockB[k * 32 + 2 * x + 1];
      float rowA[8] = float[8](a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w);
      for (int i = 0; i < 8; i++) {
        sums[2 * i] = fma(vec4(rowA[i]), b0, sums[2 * i]);
        sums[2 * i + 1] = fma(vec4(rowA[i]), b1, sums[2 * i + 1]);
      }
    }
    barrier();
  }
  for (int i = 0; i < 8; i++) {
    int row = firstRow + 8 * y + i;
    c[row * n4 + firstColumn / 4 + 2 * x] = sums[2 * i];
    c[row * n4 + firstColumn / 4 + 2 * x + 1] = sums[2 * i + 1];
  }
}
