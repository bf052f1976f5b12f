package dev.kiln.llama.text;

/**
 * The byte-level alphabet of GPT-2-style BPE: each of the 256 byte values as one printable
 * character (the printable Latin-1 bytes as themselves, the others from U+0100 on), so that any
 * UTF-8 text is a string of vocabulary symbols.
 */
final class ByteLevel {
  private static final char[] CHARS = new char[256];
  private static final int[] BYTES = new int[512];

  static {
    java.util.Arrays.fill(BYTES, -1);
    int next = 256;
    for (int b = 0; b < 256; b++) {
      boolean printable = b >= '!' && b <= '~' || b >= 0xA1 && b <= 0xAC || b >= 0xAE;
      CHARS[b] = (char) (printable ? b : next++);
      BYTES[CHARS[b]] = b;
    }
  }

  private ByteLevel() {}

  /** {@code text}'s UTF-8 bytes, each as its character. */
  static String encode(String text) {
    byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    char[] chars = new char[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      chars[i] = CHARS[bytes[i] & 0xff];
    }
    return new String(chars);
  }

  /**
   * Appends the bytes {@code symbols} stands for to {@code out}; a character outside the alphabet
   * (in an added token) as its UTF-8.
   */
  static void decode(String symbols, java.io.ByteArrayOutputStream out) {
    for (int i = 0; i < symbols.length(); ) {
      int c = symbols.codePointAt(i);
      int b = c < BYTES.length ? BYTES[c] : -1;
      if (b >= 0) {
        out.write(b);
      } else {
        out.writeBytes(Character.toString(c).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
      i += Character.charCount(c);
    }
  }
}
