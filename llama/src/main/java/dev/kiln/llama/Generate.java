package dev.kiln.llama;

import dev.kiln.Device;
import dev.kiln.Recording;
import dev.kiln.llama.gpu.DeviceModel;
import dev.kiln.llama.gpu.DeviceWeights;
import dev.kiln.llama.model.LlamaConfig;
import dev.kiln.llama.text.Sampler;
import dev.kiln.llama.text.Tokenizer;
import dev.kiln.llama.weights.SafeTensors;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Generates text with a Llama model on the best device (greedy, or sampled with a temperature and
 * top-p: then each step's logits come to the host), or measures decoding on random weights:
 *
 * <pre>
 * java ... dev.kiln.llama.Generate --model DIR [--prompt TEXT | --prompt-ids 1,2,3] [--steps N]
 *     [--positions N] [--temperature T] [--top-p P] [--seed S] [--logits FILE] [--no-prefill]
 * java ... dev.kiln.llama.Generate --random 1B|3B|8B [--bf16] [--zeros N] [--steps N]
 *     [--positions N] [--prefill N]
 * </pre>
 *
 * {@code DIR} holds a Hugging Face checkpoint: {@code config.json}, {@code tokenizer.json} and the
 * safetensors files. With {@code --random} the weights are seeded random values made on the device
 * and the program times the steps after the first 128 positions: tokens per second from the host's
 * clock, and the median GPU time of a step; then the prefill of a prompt of {@code --prefill}
 * random tokens (512; 0 skips it). {@code --zeros N} (a power of two) makes about one weight in
 * {@code N} zero, as real checkpoints hold zeros and float16 subnormals. A checkpoint's prompt but
 * its last token is prefilled ({@link DeviceModel#prefill}; {@code --no-prefill} runs it through
 * the recorded step, position by position, in float32 throughout); the recorded step runs from
 * there.
 */
public final class Generate {
  private Generate() {}

  public static void main(String[] args) throws IOException {
    String model = option(args, "--model", null);
    String random = option(args, "--random", null);
    int steps = Integer.parseInt(option(args, "--steps", random != null ? "640" : "64"));
    int positions = Integer.parseInt(option(args, "--positions", "1024"));
    if ((model == null) == (random == null)) {
      System.err.println(
          "usage: Generate --model DIR [--prompt TEXT | --prompt-ids 1,2,3] [--steps N]\n"
              + "                [--positions N] [--temperature T] [--top-p P] [--seed S]\n"
              + "                [--logits FILE] [--no-prefill]\n"
              + "       Generate --random 1B|3B|8B [--bf16] [--zeros N] [--steps N]"
              + " [--positions N] [--prefill N]");
      System.exit(2);
    }
    long opened = System.nanoTime();
    try (Device device = Device.open()) {
      if (random != null) {
        LlamaConfig config = LlamaConfig.preset(random);
        boolean bfloat = Arrays.asList(args).contains("--bf16");
        int zeros = Integer.parseInt(option(args, "--zeros", "0"));
        DeviceWeights weights = DeviceWeights.random(20261205, bfloat, zeros);
        try (DeviceModel decoder = new DeviceModel(device, config, weights, positions)) {
          String label =
              random
                  + (bfloat ? " bf16" : " f16")
                  + (zeros > 0 ? ", one weight in " + zeros + " zero" : "");
          measure(device, decoder, label, steps);
          int prefill = Integer.parseInt(option(args, "--prefill", "512"));
          if (prefill > 0) {
            measurePrefill(decoder, Math.min(prefill, positions));
          }
        }
      } else {
        generate(device, Path.of(model), args, steps, positions, opened);
      }
    }
  }

  /**
   * Generates from the checkpoint in {@code folder}: the prompt's text ({@code --prompt}, through
   * its tokenizer) or its ids ({@code --prompt-ids}: then the ids are printed too, and a tokenizer
   * is optional), greedy or sampled; with {@code --logits FILE} each generated token's logits go to
   * {@code FILE} as little-endian floats, one row of the vocabulary per token.
   */
  private static void generate(
      Device device, Path folder, String[] args, int steps, int positions, long opened)
      throws IOException {
    LlamaConfig config = LlamaConfig.read(folder);
    String ids = option(args, "--prompt-ids", null);
    Tokenizer tokenizer =
        ids == null || java.nio.file.Files.exists(folder.resolve("tokenizer.json"))
            ? Tokenizer.read(folder)
            : null;
    int[] prompt =
        ids != null
            ? Arrays.stream(ids.split(",")).mapToInt(Integer::parseInt).toArray()
            : tokenizer.encode(option(args, "--prompt", "The capital of France is"));
    String logitsFile = option(args, "--logits", null);
    Sampler sampler =
        new Sampler(
            Float.parseFloat(option(args, "--temperature", "0")),
            Float.parseFloat(option(args, "--top-p", "1")),
            Long.parseLong(option(args, "--seed", "1")));
    try (DeviceModel decoder =
            new DeviceModel(device, config, SafeTensors.open(folder), positions);
        Recording step = decoder.recordStep(prompt.length);
        java.io.OutputStream logitsOut =
            logitsFile == null
                ? java.io.OutputStream.nullOutputStream()
                : new java.io.BufferedOutputStream(
                    java.nio.file.Files.newOutputStream(Path.of(logitsFile)))) {
      decoder.start(prompt);
      int total = Math.min(prompt.length + steps, positions);
      if (Arrays.asList(args).contains("--no-prefill")) {
        step.replay(prompt.length);
      } else {
        decoder.prefill(prompt.length - 1);
        step.replay();
      }
      System.out.printf(
          "%s on %s, first token %.0f ms after start%n",
          folder.getFileName(), device.name(), (System.nanoTime() - opened) / 1e6);
      if (tokenizer != null) {
        System.out.print(tokenizer.decode(prompt));
      }
      long start = System.nanoTime();
      java.util.List<Integer> generated = new java.util.ArrayList<>();
      int printed = 0;
      boolean onDevice = sampler.isGreedy() && logitsFile == null; // the steps choose the tokens
      int chosen = prompt.length; // the last position whose token is chosen
      for (int p = prompt.length; p < total; p++) {
        float[] logits = sampler.isGreedy() && logitsFile == null ? null : decoder.logits();
        if (logitsFile != null) {
          java.nio.ByteBuffer bytes =
              java.nio.ByteBuffer.allocate(logits.length * Float.BYTES)
                  .order(java.nio.ByteOrder.LITTLE_ENDIAN);
          bytes.asFloatBuffer().put(logits);
          logitsOut.write(bytes.array());
        }
        int token = sampler.isGreedy() ? decoder.token(p) : sampler.next(logits);
        if (!sampler.isGreedy()) {
          decoder.choose(p, token);
        }
        generated.add(token);
        if (tokenizer != null) {
          String text = tokenizer.decode(generated.stream().mapToInt(Integer::intValue).toArray());
          if (!text.endsWith("\uFFFD")) { // a character's bytes may span tokens
            System.out.print(text.substring(printed));
            System.out.flush();
            printed = text.length();
          }
        }
        if (p + 1 == total || (tokenizer != null && tokenizer.isSpecial(token))) {
          break;
        }
        if (!onDevice) {
          step.replay();
        } else if (chosen == p) { // the next steps back to back: no host turn between them
          int runs = Math.min(CHAINED_STEPS, total - 1 - p);
          step.replay(runs);
          chosen = p + runs;
        }
      }
      System.out.printf(
          "%n%.1f tokens/s%n", generated.size() / ((System.nanoTime() - start) / 1e9));
      if (ids != null) {
        int[] all = decoder.tokens(prompt.length + generated.size());
        System.out.println(
            "ids: "
                + String.join(
                    ",", Arrays.stream(all).mapToObj(Integer::toString).toArray(String[]::new)));
      }
    }
  }

  /**
   * Greedy steps run back to back between the host's reads of their tokens: the text comes in
   * pieces of this many tokens, and a special token stops the printing, not the steps already run.
   */
  private static final int CHAINED_STEPS = 16;

  /** Decodes {@code steps} positions of one token and random weights, timing those past 128. */
  private static void measure(Device device, DeviceModel decoder, String name, int steps) {
    int warm = Math.min(128, steps / 2);
    try (Recording step = decoder.recordStep(1)) {
      decoder.start(new int[] {1});
      for (int p = 0; p < warm; p++) {
        step.replay();
      }
      long[] gpu = new long[steps - warm];
      long start = System.nanoTime();
      for (int p = warm; p < steps; p++) {
        step.replay();
        gpu[p - warm] = step.deviceNanos();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      decoder.moveTo(warm); // the same positions again, the steps submitted at once
      start = System.nanoTime();
      step.replay(steps - warm);
      double backToBack = (System.nanoTime() - start) / 1e9;
      System.out.printf(
          "Llama %s on %s: positions %d-%d, %.1f tokens/s (host clock, the steps back to back in"
              + " one submission), %.1f tokens/s a step at a time, GPU time per step %.3f ms"
              + " (median)%n",
          name,
          device.name(),
          warm,
          steps - 1,
          (steps - warm) / backToBack,
          (steps - warm) / seconds,
          median(gpu) / 1e6);
    }
    int middle = Math.min(384, decoder.positions() - 1);
    StringBuilder shares =
        new StringBuilder("  each kind of launch alone, at position " + middle + ":");
    for (DeviceModel.Part part : DeviceModel.Part.values()) {
      try (Recording alone = decoder.recordStep(1, java.util.EnumSet.of(part))) {
        long[] gpu = new long[50];
        for (int r = -10; r < gpu.length; r++) {
          decoder.moveTo(middle);
          alone.replay();
          if (r >= 0) {
            gpu[r] = alone.deviceNanos();
          }
        }
        shares.append(String.format(" %s %.3f ms", part, median(gpu) / 1e6));
      }
    }
    System.out.println(shares);
  }

  /**
   * Times the prefill of a prompt of {@code length} random tokens, the median of 9 after one, then
   * each kind of its launches alone: on the host's clock (recording, submission and the wait), and
   * on the device's.
   */
  private static void measurePrefill(DeviceModel decoder, int length) {
    int[] prompt = new java.util.Random(length).ints(length, 0, 128000).toArray();
    long[] all = timePrefill(decoder, prompt, java.util.EnumSet.allOf(DeviceModel.Part.class));
    StringBuilder alone = new StringBuilder();
    for (DeviceModel.Part part : DeviceModel.Part.values()) {
      long[] times = timePrefill(decoder, prompt, java.util.EnumSet.of(part));
      alone.append(
          String.format(
              " %s %.2f ms (GPU %.2f)",
              part == DeviceModel.Part.GEMV ? "GEMM" : part.toString(),
              times[0] / 1e6,
              times[1] / 1e6));
    }
    System.out.printf(
        "  prefill of %d tokens: %.2f ms (host clock, median), %.0f tokens/s, GPU time %.2f ms;"
            + " alone:%s%n",
        length, all[0] / 1e6, length / (all[0] / 1e9), all[1] / 1e6, alone);
  }

  /** The median host time and the median device time of 9 prefills after one, in nanoseconds. */
  private static long[] timePrefill(
      DeviceModel decoder, int[] prompt, java.util.Set<DeviceModel.Part> parts) {
    long[] host = new long[9];
    long[] gpu = new long[host.length];
    for (int r = -1; r < host.length; r++) {
      decoder.start(prompt);
      long start = System.nanoTime();
      long device = decoder.prefill(prompt.length, parts);
      if (r >= 0) {
        host[r] = System.nanoTime() - start;
        gpu[r] = device;
      }
    }
    return new long[] {median(host), median(gpu)};
  }

  private static long median(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static String option(String[] args, String name, String otherwise) {
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals(name)) {
        return args[i + 1];
      }
    }
    return otherwise;
  }
}
