package dev.kiln.llama.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** config.json as Llama 3.2 1B ships it, RoPE's scaled frequencies, and configs refused. */
class LlamaConfigTest {
  /** Llama-3.2-1B-Instruct's config.json. */
  private static final String LLAMA_3_2_1B =
      """
      {"architectures": ["LlamaForCausalLM"], "attention_bias": false, "attention_dropout": 0.0,
       "bos_token_id": 128000, "eos_token_id": [128001, 128008, 128009], "head_dim": 64,
       "hidden_act": "silu", "hidden_size": 2048, "initializer_range": 0.02,
       "intermediate_size": 8192, "max_position_embeddings": 131072, "mlp_bias": false,
       "model_type": "llama", "num_attention_heads": 32, "num_hidden_layers": 16,
       "num_key_value_heads": 8, "pretraining_tp": 1, "rms_norm_eps": 1e-05,
       "rope_scaling": {"factor": 32.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
         "original_max_position_embeddings": 8192, "rope_type": "llama3"},
       "rope_theta": 500000.0, "tie_word_embeddings": true, "torch_dtype": "bfloat16",
       "transformers_version": "4.45.0.dev0", "use_cache": true, "vocab_size": 128256}
      """;

  @Test
  void readsLlama32OneBillionAsItsPreset(@TempDir Path folder) throws Exception {
    Files.writeString(folder.resolve("config.json"), LLAMA_3_2_1B);
    assertEquals(LlamaConfig.LLAMA_3_2_1B, LlamaConfig.read(folder));
    assertEquals(LlamaConfig.LLAMA_3_2_1B, LlamaConfig.preset("1b"));
    // 1,235,814,400 parameters in 16 bits: the 2.47 GB a decoding step reads
    assertEquals(2_471_628_800L, LlamaConfig.LLAMA_3_2_1B.weightBytes());
  }

  /** Hugging Face's {@code _compute_llama3_parameters} in Python's doubles, at Llama 3.2 1B. */
  @Test
  void scalesRopeFrequenciesAsLlama3() {
    double[] frequencies = LlamaConfig.LLAMA_3_2_1B.inverseFrequencies();
    assertEquals(32, frequencies.length);
    double[][] expected = {
      {0, 1.0},
      {5, 0.12868737343265052}, // kept: shorter than the high-frequency wavelength
      {10, 0.016560440080994446}, // blended
      {12, 0.0072926647372171085},
      {14, 0.0032114459947525913},
      {16, 0.00042955679655936815}, // divided by the factor
      {20, 8.570255489881478e-06},
      {31, 9.418306725434909e-08}
    };
    for (double[] pair : expected) {
      assertEquals(pair[1], frequencies[(int) pair[0]], pair[1] * 1e-12, "frequency " + pair[0]);
    }
  }

  @Test
  void refusesConfigsItCannotRunSayingWhy(@TempDir Path folder) throws Exception {
    Path file = folder.resolve("config.json");
    Files.writeString(file, LLAMA_3_2_1B.replace("\"hidden_size\": 2048,", ""));
    IOException missing = assertThrows(IOException.class, () -> LlamaConfig.read(file));
    assertTrue(missing.getMessage().contains("\"hidden_size\" is missing"), missing.getMessage());
    Files.writeString(
        file, LLAMA_3_2_1B.replace("\"model_type\": \"llama\"", "\"model_type\": \"mistral\""));
    IOException type = assertThrows(IOException.class, () -> LlamaConfig.read(file));
    assertTrue(type.getMessage().contains("\"mistral\""), type.getMessage());
    Files.writeString(
        file, LLAMA_3_2_1B.replace("\"rope_type\": \"llama3\"", "\"rope_type\": \"yarn\""));
    IOException rope = assertThrows(IOException.class, () -> LlamaConfig.read(file));
    assertTrue(rope.getMessage().contains("not Llama 3's"), rope.getMessage());
    Files.writeString(
        file, LLAMA_3_2_1B.replace("\"num_key_value_heads\": 8", "\"num_key_value_heads\": 5"));
    IOException heads = assertThrows(IOException.class, () -> LlamaConfig.read(file));
    assertTrue(heads.getMessage().contains("do not share 5 key-value heads"), heads.getMessage());
    IllegalArgumentException preset =
        assertThrows(IllegalArgumentException.class, () -> LlamaConfig.preset("70B"));
    assertTrue(preset.getMessage().contains("Fix: name 1B, 3B or 8B"), preset.getMessage());
  }
}
