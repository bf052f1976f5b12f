#version 450
// Hand-written twin of Workgroups.histogram (dev.kiln.bench): the low bytes of the values counted
// into 256 bins per workgroup in shared memory, then one atomic add per bin.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer In { int values[]; };
layout(std430, set = 0, binding = 1) buffer Bins { int bins[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; };
shared int counts[256];
void main() {
  uint l = gl_LocalInvocationID.x;
  uint i = gl_GlobalInvocationID.x + firstGroup * 256u;
  counts[l] = 0;
  barrier();
  if (i < count) {
    atomicAdd(counts[values[i] & 255], 1);
  }
  barrier();
  atomicAdd(bins[l], counts[l]);
}
