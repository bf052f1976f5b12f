#version 450
// Hand-written twin of Workgroups.scan (dev.kiln.bench): the inclusive prefix sum of each
// workgroup's 256 ints, Hillis-Steele in shared memory.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer In { int values[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { int sums[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; };
shared int cells[256];
void main() {
  uint l = gl_LocalInvocationID.x;
  uint i = gl_GlobalInvocationID.x + firstGroup * 256u;
  cells[l] = i < count ? values[i] : 0;
  barrier();
  for (uint offset = 1u; offset < 256u; offset <<= 1u) {
    int add = l >= offset ? cells[l - offset] : 0;
    barrier();
    cells[l] += add;
    barrier();
  }
  if (i < count) {
    sums[i] = cells[l];
  }
}
