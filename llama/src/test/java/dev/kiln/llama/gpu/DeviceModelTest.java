package dev.kiln.llama.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kiln.Device;
import dev.kiln.Recording;
import dev.kiln.llama.model.LlamaConfig;
import dev.kiln.llama.model.LlamaWeights;
import dev.kiln.llama.model.ReferenceModel;
import dev.kiln.llama.model.TinyCheckpoint;
import dev.kiln.llama.weights.SafeTensors;
import dev.kiln.llama.weights.TensorType;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The device model's recorded step, run once per position, against the reference model on the tiny
 * Llama: on the CPU backend (the kernels' Java semantics) and on Vulkan (lavapipe in CI), the same
 * greedy tokens after the prompt, and the last step's logits within 1e-4 of the reference's (the
 * exponentials are the device's, and sums run in other orders).
 */
class DeviceModelTest extends LlamaDevices {
  @ParameterizedTest
  @EnumSource(
      value = TensorType.class,
      names = {"F16", "BF16"})
  void greedyTokensAndLogitsAreTheReferenceModels(TensorType type, @TempDir Path folder)
      throws Exception {
    LlamaConfig config = TinyCheckpoint.write(folder, type);
    SafeTensors tensors = SafeTensors.open(folder);
    JsonObject expected = TinyCheckpoint.expected();
    int[] prompt =
        expected.getAsJsonArray("prompt").asList().stream()
            .mapToInt(JsonElement::getAsInt)
            .toArray();
    int steps = expected.getAsJsonArray("logits").size();
    ReferenceModel reference = new ReferenceModel(LlamaWeights.read(tensors, config), 64);
    int[] referenceTokens = java.util.Arrays.copyOf(prompt, steps + 1);
    float[] referenceLogits = null;
    for (int step = 0; step < steps; step++) {
      referenceLogits = reference.step(referenceTokens[step]);
      if (step + 1 >= prompt.length) {
        referenceTokens[step + 1] = dev.kiln.llama.text.Sampler.argmax(referenceLogits);
      }
    }
    for (Device device : devices()) {
      try (DeviceModel model = new DeviceModel(device, config, tensors, 64);
          Recording step = model.recordStep(prompt.length)) {
        model.start(prompt);
        for (int s = 0; s < steps; s++) {
          step.replay();
        }
        assertArrayEquals(referenceTokens, model.tokens(steps + 1), "tokens on " + device);
        float[] logits = model.logits();
        double worst = 0;
        for (int i = 0; i < logits.length; i++) {
          worst = Math.max(worst, Math.abs(logits[i] - referenceLogits[i]));
        }
        assertTrue(worst < 1e-4, "the last logits on " + device + " differ by up to " + worst);
        assertEquals(config.vocabulary(), logits.length);
      }
    }
    abortWithoutVulkan("ran the model");
  }

  /**
   * Random weights with zeros asked for hold about that share of zeros (one in 64 here, within 20 %
   * of 65,536 elements' expectation), the same bits on the CPU backend and Vulkan, and the other
   * elements as without zeros; a share that is no power of two is refused with its fix.
   */
  @org.junit.jupiter.api.Test
  void randomWeightsHoldTheZerosAskedFor() throws Exception {
    String[] names = {"a"};
    int[] rows = {1024};
    short[] plain;
    short[] zeros;
    try (dev.kiln.ShortArray matrix = DeviceWeights.random(7, false).matrix(cpu, 64, names, rows);
        dev.kiln.ShortArray zeroed =
            DeviceWeights.random(7, false, 64).matrix(cpu, 64, names, rows)) {
      plain = matrix.toArray();
      zeros = zeroed.toArray();
    }
    int count = 0;
    for (int i = 0; i < zeros.length; i++) {
      if (zeros[i] == 0) {
        count++;
      } else {
        assertEquals(plain[i], zeros[i], "element " + i);
      }
    }
    assertTrue(Math.abs(count - zeros.length / 64) < zeros.length / 64 / 5, count + " zeros");
    if (vulkan != null) {
      try (dev.kiln.ShortArray onVulkan =
          DeviceWeights.random(7, false, 64).matrix(vulkan, 64, names, rows)) {
        assertTrue(java.util.Arrays.equals(zeros, onVulkan.toArray()), "the same bits on Vulkan");
      }
    }
    IllegalArgumentException refused =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> DeviceWeights.random(7, false, 100));
    assertEquals(
        "zeros one in 100: the random weights take a power of two from 2 up, or 0. Fix: pass 2, 4,"
            + " ..., 512, ... or 0",
        refused.getMessage());
  }

  /**
   * Random weights are the same bits on the CPU backend and Vulkan, odd multiples of 1/512 in
   * (-1/8, 1/8) times the scale (4 / sqrt(cols)), never 0, and differ between matrices.
   */
  @org.junit.jupiter.api.Test
  void randomWeightsAreTheSameEverywhereAndInRange() throws Exception {
    DeviceWeights weights = DeviceWeights.random(5, false);
    short[] onCpu;
    try (dev.kiln.ShortArray matrix =
            weights.matrix(cpu, 64, new String[] {"a", "b"}, new int[] {3, 5});
        dev.kiln.ShortArray other = weights.matrix(cpu, 64, new String[] {"c"}, new int[] {8})) {
      onCpu = matrix.toArray();
      assertTrue(!java.util.Arrays.equals(onCpu, other.toArray()), "two matrices, two draws");
    }
    assertEquals(8 * 64, onCpu.length);
    java.util.Set<Short> distinct = new java.util.HashSet<>();
    for (short bits : onCpu) {
      float value = Float.float16ToFloat(bits) * 2; // 4 / sqrt(64) = 1/2
      double odd = value * 512 - 1; // an odd multiple of 1/512: value * 512 - 1 even
      assertTrue(value > -0.125f && value < 0.125f && odd == 2 * Math.rint(odd / 2), "" + value);
      distinct.add(bits);
    }
    assertTrue(distinct.size() > 50, distinct.size() + " distinct values");
    abortWithoutVulkan("made the weights");
    try (dev.kiln.ShortArray matrix =
        weights.matrix(vulkan, 64, new String[] {"a", "b"}, new int[] {3, 5})) {
      assertArrayEquals(onCpu, matrix.toArray());
    }
  }

  /**
   * A token chosen by the host ({@code choose}, as sampling does) replaces the step's argmax: the
   * steps after it run on it, as the reference model fed the same tokens.
   */
  @org.junit.jupiter.api.Test
  void aChosenTokenIsTheOneTheNextStepsRunOn(@TempDir Path folder) throws Exception {
    LlamaConfig config = TinyCheckpoint.write(folder, TensorType.F16);
    SafeTensors tensors = SafeTensors.open(folder);
    int[] fed = {700, 39, 269, 5, 600, 17};
    ReferenceModel reference = new ReferenceModel(LlamaWeights.read(tensors, config), 16);
    float[] expected = null;
    for (int token : fed) {
      expected = reference.step(token);
    }
    try (DeviceModel model = new DeviceModel(cpu, config, tensors, 16);
        Recording step = model.recordStep(3)) {
      model.start(new int[] {700, 39, 269});
      for (int p = 0; p < fed.length; p++) {
        step.replay();
        if (p + 1 < fed.length && p + 1 >= 3) {
          model.choose(p + 1, fed[p + 1]);
        }
      }
      assertArrayEquals(fed, model.tokens(fed.length));
      float[] logits = model.logits();
      for (int i = 0; i < logits.length; i++) {
        assertEquals(expected[i], logits[i], 1e-4, "logit " + i);
      }
    }
  }

  /**
   * Attention split over the cache ({@code LlamaKernels.SPAN} positions a workgroup) and combined:
   * a prompt of 90 tokens crosses two span boundaries, and the logits at the positions around them
   * are the reference model's within 1e-4, on the CPU backend and on Vulkan.
   */
  @org.junit.jupiter.api.Test
  void attentionAcrossSpansIsTheReferenceModels(@TempDir Path folder) throws Exception {
    LlamaConfig config = TinyCheckpoint.write(folder, TensorType.BF16);
    SafeTensors tensors = SafeTensors.open(folder);
    int[] prompt = new java.util.Random(90).ints(90, 0, config.vocabulary()).toArray();
    java.util.Set<Integer> checked = java.util.Set.of(30, 31, 32, 33, 63, 64, 89);
    ReferenceModel reference = new ReferenceModel(LlamaWeights.read(tensors, config), 96);
    java.util.Map<Integer, float[]> expected = new java.util.HashMap<>();
    for (int p = 0; p < prompt.length; p++) {
      float[] logits = reference.step(prompt[p]);
      if (checked.contains(p)) {
        expected.put(p, logits);
      }
    }
    for (Device device : devices()) {
      try (DeviceModel model = new DeviceModel(device, config, tensors, 96);
          Recording step = model.recordStep(prompt.length)) {
        model.start(prompt);
        for (int p = 0; p < prompt.length; p++) {
          step.replay();
          if (checked.contains(p)) {
            float[] logits = model.logits();
            for (int i = 0; i < logits.length; i++) {
              assertEquals(
                  expected.get(p)[i], logits[i], 1e-4, "logit " + i + " at " + p + " on " + device);
            }
          }
        }
      }
    }
    abortWithoutVulkan("ran the model");
  }

  /**
   * A prefill (products matrix-matrix, activations rounded to the weights' 16-bit type as their
   * factors) of a prompt longer than {@link DeviceModel#PREFILL_ROWS}, then the recorded step at
   * its last position: the logits are the reference model's within 2 units of the 16-bit type's
   * rounding ({@code 2^-11} for float16, {@code 2^-8} for bfloat16) times the largest logit, what
   * rounding the final hidden state once would allow (measured: 0.06 units; the roundings of the
   * factors partly cancel in the sums). The greedy tokens after it are not compared: a rounding may
   * turn a near tie.
   */
  @ParameterizedTest
  @EnumSource(
      value = TensorType.class,
      names = {"F16", "BF16"})
  void aPrefillThenAStepGivesTheReferenceLogits(TensorType type, @TempDir Path folder)
      throws Exception {
    LlamaConfig config = TinyCheckpoint.write(folder, type);
    SafeTensors tensors = SafeTensors.open(folder);
    int length = DeviceModel.PREFILL_ROWS + 77;
    int[] prompt = new java.util.Random(length).ints(length, 0, config.vocabulary()).toArray();
    ReferenceModel reference = new ReferenceModel(LlamaWeights.read(tensors, config), length);
    float[] expected = null;
    for (int token : prompt) {
      expected = reference.step(token);
    }
    double largest = 0;
    for (float logit : expected) {
      largest = Math.max(largest, Math.abs(logit));
    }
    double unit = type == TensorType.F16 ? 0x1p-11 : 0x1p-8;
    for (Device device : devices()) {
      try (DeviceModel model = new DeviceModel(device, config, tensors, length);
          Recording step = model.recordStep(prompt.length)) {
        model.start(prompt);
        long nanos =
            model.prefill(prompt.length - 1, java.util.EnumSet.allOf(DeviceModel.Part.class));
        assertTrue(
            nanos > 0,
            "the prefill's time on the device, two batches: " + nanos + " ns on " + device);
        step.replay();
        float[] logits = model.logits();
        double worst = 0;
        for (int i = 0; i < logits.length; i++) {
          worst = Math.max(worst, Math.abs(logits[i] - expected[i]));
        }
        assertTrue(
            worst <= 2 * unit * largest,
            "logits differ by up to " + worst + " on " + device + ", largest " + largest);
      }
    }
    abortWithoutVulkan("ran the model");
  }

  /**
   * A step past the cache is Java's exception, not a write past it (the attention kernels run
   * without index checks on Vulkan): a cache of 40 positions (two spans, the second partial) takes
   * 40 steps, and the 41st throws Java's exception at the advance's write of the token past the
   * cache; on the CPU backend and on Vulkan.
   */
  @org.junit.jupiter.api.Test
  void aStepPastTheCacheThrows(@TempDir Path folder) throws Exception {
    LlamaConfig config = TinyCheckpoint.write(folder, TensorType.F16);
    SafeTensors tensors = SafeTensors.open(folder);
    for (Device device : devices()) {
      try (DeviceModel model = new DeviceModel(device, config, tensors, 40);
          Recording step = model.recordStep(3)) {
        model.start(new int[] {700, 39, 269});
        for (int p = 0; p < 40; p++) {
          step.replay();
        }
        ArrayIndexOutOfBoundsException past =
            org.junit.jupiter.api.Assertions.assertThrows(
                ArrayIndexOutOfBoundsException.class, step::replay, device.toString());
        assertTrue(
            past.getMessage().startsWith("Index 41 out of bounds")
                && past.getMessage().contains("LlamaKernels#advance"),
            past.getMessage());
      }
    }
  }

  /**
   * A model whose heads the attention kernels cannot take (too wide, or too narrow for its four
   * elements a turn) is refused, saying what they take.
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(ints = {192, 2})
  void headsTheAttentionCannotTakeAreRefused(int headDim) {
    LlamaConfig config =
        new LlamaConfig(64, 96, 1, 1, 1, headDim, 100, 64, 1e-5f, 10000, null, false);
    IllegalArgumentException refused =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> new DeviceModel(cpu, config, DeviceWeights.random(1, false), 16));
    assertEquals(
        "heads of "
            + headDim
            + " in groups of 1 per key-value head; the attention takes heads that divide"
            + " 256, at least 4, at most 128, in groups of at most 8. Fix: run this model with"
            + " ReferenceModel (plain Java, any heads), or use a checkpoint with Llama 3's heads"
            + " (64 or 128 wide, groups of at most 8)",
        refused.getMessage());
  }
}
