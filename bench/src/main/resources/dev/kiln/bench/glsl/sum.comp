#version 450
// Hand-written twin of Workgroups.sum (dev.kiln.bench): a workgroup's 256 ints summed in shared
// memory by halving strides, then one atomic add per workgroup.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer In { int values[]; };
layout(std430, set = 0, binding = 1) buffer Total { int total[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; };
shared int partial[256];
void main() {
  uint l = gl_LocalInvocationID.x;
  uint i = gl_GlobalInvocationID.x + firstGroup * 256u;
  partial[l] = i < count ? values[i] : 0;
  barrier();
  for (uint stride = 128u; stride > 0u; stride >>= 1u) {
    if (l < stride) {
      partial[l] += partial[l + stride];
    }
    barrier();
  }
  if (l == 0u) {
    atomicAdd(total[0], partial[0]);
  }
}
