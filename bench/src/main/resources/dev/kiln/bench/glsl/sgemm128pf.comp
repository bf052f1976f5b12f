#version 450
// RegisterTiles.prefetched as a GLSL author would write it: the 128 x 128 block and contiguous 8 x 8
// tile per invocation of sgemm128v4, with the next stage's vec4 of a and of b loaded into registers
// while this stage multiplies, vec4 loads from shared memory and vec4 stores of c. For n a multiple
// of 128 only; fma-summed in k order like the others.
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
  vec4 nextA = a[(firstRow + rowOfA) * n4 + kOfA / 4];
  vec4 nextB = b[kOfB * n4 + firstColumn / 4 + columnOfB];
  for (int k0 = 0; k0 < n; k0 += 8) {
    blockA[(kOfA + 0) * 32 + rowOfA / 4][rowOfA % 4] = nextA.x;
    blockA[(kOfA + 1) * 32 + rowOfA / 4][rowOfA % 4] = nextA.y;
    blockA[(kOfA + 2) * 32 + rowOfA / 4][rowOfA % 4] = nextA.z;
    blockA[(kOfA + 3) * 32 + rowOfA / 4][rowOfA % 4] = nextA.w;
    blockB[kOfB * 32 + columnOfB] = nextB;
    barrier();
    if (k0 + 8 < n) {
      nextA = a[(firstRow + rowOfA) * n4 + (k0 + 8 + kOfA) / 4];
      nextB = b[(k0 + 8 + kOfB) * n4 + firstColumn / 4 + columnOfB];
    }
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
