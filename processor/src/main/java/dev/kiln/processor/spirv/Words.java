package dev.kiln.processor.spirv;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable list of SPIR-V words: one section of a module. */
final class Words {
  private int[] words = new int[64];
  private int size;

  /** Appends an instruction: its word count and opcode, then its operands. */
  void op(int opcode, int... operands) {
    add(((operands.length + 1) << 16) | opcode);
    for (int operand : operands) {
      add(operand);
    }
  }

  /** Appends an instruction whose operands end with a literal string. */
  void opWithString(int opcode, int[] before, String text, int... after) {
    int[] string = string(text);
    add(((1 + before.length + string.length + after.length) << 16) | opcode);
    for (int word : before) {
      add(word);
    }
    for (int word : string) {
      add(word);
    }
    for (int word : after) {
      add(word);
    }
  }

  /** A literal string: UTF-8, nul-terminated, padded to whole words, little-endian. */
  static int[] string(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    int[] packed = new int[bytes.length / 4 + 1];
    for (int i = 0; i < bytes.length; i++) {
      packed[i / 4] |= (bytes[i] & 0xff) << (8 * (i % 4));
    }
    return packed;
  }

  void add(int word) {
    if (size == words.length) {
      words = Arrays.copyOf(words, size * 2);
    }
    words[size++] = word;
  }

  void addAll(Words other) {
    for (int i = 0; i < other.size; i++) {
      add(other.words[i]);
    }
  }

  int size() {
    return size;
  }

  int get(int index) {
    return words[index];
  }
}
