import dev.kiln.Device;
import dev.kiln.llama.gpu.*;
import dev.kiln.llama.model.LlamaConfig;
public class Probe {
  public static void main(String[] a) throws Exception {
    LlamaConfig c = LlamaConfig.LLAMA_3_2_1B;
    LlamaConfig one = new LlamaConfig(c.hidden(), c.intermediate(), 1, c.heads(), c.kvHeads(), c.headDim(), Integer.getInteger("vocab", 30000), c.maxPositions(), c.normEpsilon(), c.ropeTheta(), c.ropeScaling(), c.tiedEmbeddings());
    try (Device device = Device.open();
         DeviceModel m = new DeviceModel(device, one, DeviceWeights.random(1, a.length > 0), 1024)) {
      System.err.println("device " + device.name());
      int[] prompt = new int[Integer.getInteger("n", 40)];
      for (int i = 0; i < prompt.length; i++) prompt[i] = i + 7;
      m.start(prompt);
      m.prefill(prompt.length - 1);
      try (var step = m.recordStep(prompt.length)) { step.replay(); step.replay(); }
      System.err.println("token " + m.token(prompt.length));
    }
  }
}
