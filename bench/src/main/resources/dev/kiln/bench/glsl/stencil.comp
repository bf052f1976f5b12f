#version 450
// Hand-written twin of Workgroups.stencil (dev.kiln.bench): a 5-point stencil on a width x height
// grid, the border copied.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, set = 0, binding = 0) readonly buffer In { float grid[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float result[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; int width; int height; };
void main() {
  int x = int(gl_GlobalInvocationID.x + firstGroup * 16u);
  int y = int(gl_GlobalInvocationID.y);
  if (x < width && y < height) {
    int i = y * width + x;
    if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
      result[i] = grid[i];
    } else {
      precise float neighbours = ((grid[i - 1] + grid[i + 1]) + grid[i - width]) + grid[i + width];
      precise float value = 0.5 * grid[i] + 0.125 * neighbours;
      result[i] = value;
    }
  }
}
