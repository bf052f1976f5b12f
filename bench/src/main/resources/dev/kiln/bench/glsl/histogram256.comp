#version 450
// Hand-written twin of dev.kiln.samples.ByteHistogram.count: a persistent grid walking the values
// grid-stride, four copies of the 256 bins per workgroup in shared memory (a quarter of the
// workgroup per copy), runs of equal bins added as one atomic, then one atomic per bin.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer In { int values[]; };
layout(std430, set = 0, binding = 1) buffer Bins { int bins[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; };
shared int counts[4 * 256];
void main() {
  uint l = gl_LocalInvocationID.x;
  for (uint copy = 0; copy < 4; copy++) {
    counts[copy * 256 + l] = 0;
  }
  barrier();
  uint mine = l / 64 * 256;
  uint stride = (count + 255u) / 256u * 256u; // the whole launch, as Kiln numbers it
  uint n = values.length() - 1u; // Kiln binds one word past the elements (MemoryAccess.length)
  uint run = 0;
  int length = 0;
  for (uint i = gl_GlobalInvocationID.x + firstGroup * 256u; i < n; i += stride) {
    uint bin = uint(values[i]) & 255u;
    if (bin != run) {
      if (length > 0) {
        atomicAdd(counts[mine + run], length);
      }
      run = bin;
      length = 0;
    }
    length++;
  }
  if (length > 0) {
    atomicAdd(counts[mine + run], length);
  }
  barrier();
  int total = 0;
  for (uint copy = 0; copy < 4; copy++) {
    total += counts[copy * 256 + l];
  }
  if (total != 0) {
    atomicAdd(bins[l], total);
  }
}
