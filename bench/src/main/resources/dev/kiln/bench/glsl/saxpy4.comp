#version 450
// Hand-written twin of Elementwise.saxpy (dev.kiln.bench): y = a * x + y, 4 floats per invocation.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer X { vec4 x[]; };
layout(std430, set = 0, binding = 1) buffer Y { vec4 y[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; float a; };
void main() {
  uint i = gl_GlobalInvocationID.x + firstGroup * 256u;
  if (i < count) {
    precise vec4 product = a * x[i];
    y[i] = product + y[i];
  }
}
