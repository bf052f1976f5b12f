#version 450
// Hand-written twin of Elementwise's fused group "chain": min(max(x * a + b, lo), hi) in place,
// 4 floats per invocation.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) buffer Data { vec4 data[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion;
    float a; float b; float lo; float hi; };
void main() {
  uint i = gl_GlobalInvocationID.x + firstGroup * 256u;
  if (i < count) {
    precise vec4 scaled = data[i] * a;
    precise vec4 shifted = scaled + b;
    data[i] = min(max(shifted, lo), hi);
  }
}
