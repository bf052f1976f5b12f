#version 450
// Hand-written twin of Workgroups.sgemm (dev.kiln.bench): c = a * b with 16 x 16 tiles of both
// factors staged in shared memory; sums in k order, not contracted to fma (precise), as Java adds.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { float b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; int n; };
shared float tileA[256];
shared float tileB[256];
void main() {
  int column = int(gl_GlobalInvocationID.x + firstGroup * 16u);
  int row = int(gl_GlobalInvocationID.y);
  int x = int(gl_LocalInvocationID.x);
  int y = int(gl_LocalInvocationID.y);
  precise float sum = 0.0;
  for (int t = 0; t < n; t += 16) {
    tileA[y * 16 + x] = row < n && t + x < n ? a[row * n + t + x] : 0.0;
    tileB[y * 16 + x] = column < n && t + y < n ? b[(t + y) * n + column] : 0.0;
    barrier();
    for (int j = 0; j < 16; j++) {
      precise float product = tileA[y * 16 + j] * tileB[j * 16 + x];
      sum = sum + product;
    }
    barrier();
  }
  if (row < n && column < n) {
    c[row * n + column] = sum;
  }
}
