// Session 36: the logits of 400 recorded steps (a 1,024-position cache, 2 layers, 8 heads, 2 key-value
// heads) hashed, to compare two versions of the attention kernels bit for bit. Compile against the llama
// module's classes and dependencies; run: java ... dev.kiln.llama.gpu.BitsCheck <headDim> cpu|vulkan
package dev.kiln.llama.gpu;

import dev.kiln.Device;
import dev.kiln.llama.model.LlamaConfig;
import dev.kiln.Recording;

public final class BitsCheck {
  public static void main(String[] args) throws Exception {
    int headDim = Integer.parseInt(args[0]);
    int kv = 2, heads = 8;
    LlamaConfig config =
        new LlamaConfig(heads * headDim, 256, 2, heads, kv, headDim, 500, 1024, 1e-5f, 10000, null, false);
    try (Device device = Device.open(args[1]);
        DeviceModel model = new DeviceModel(device, config, DeviceWeights.random(7, false, 64), 1024);
        Recording step = model.recordStep(3)) {
      model.start(new int[] {1, 2, 3});
      long hash = 0;
      for (int p = 0; p < 400; p++) {
        step.replay();
        for (float f : model.logits()) {
          hash = hash * 31 + Float.floatToRawIntBits(f);
        }
      }
      System.out.println("headDim " + headDim + " on " + args[1] + ": " + Long.toHexString(hash));
    }
  }
}
