package dev.kiln.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.abi.DescriptionCodec;
import dev.kiln.abi.DeviceFeature;
import dev.kiln.abi.KernelDescription;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every module this build wrote (the samples' and the corpus's kernels and groups) declares exactly
 * the SPIR-V capabilities and extensions the device features of its description name, beside
 * Shader: the feature table is what the writer emits, and what the runtime refuses and enables by.
 * Together the modules need every feature but tensor layouts, which only hand-written GLSL uses.
 */
class DescriptionsTest {
  private static final int CAPABILITY_SHADER = 1;
  private static final int OP_EXTENSION = 10;
  private static final int OP_CAPABILITY = 17;

  @Test
  void eachModuleDeclaresWhatItsDescriptionsFeaturesName() throws IOException {
    List<Path> modules;
    try (Stream<Path> files = Stream.concat(Files.walk(Path.of("target/classes")), Files.walk(Path.of("target/test-classes")))) {
      modules = files.filter(file -> file.toString().endsWith(".spv")).sorted().toList();
    }
    assertTrue(modules.size() > 150, modules.size() + " modules: the walk found the build's output");
    Set<DeviceFeature> needed = EnumSet.noneOf(DeviceFeature.class);
    for (Path module : modules) {
      KernelDescription description = DescriptionCodec.read(Files.readAllBytes(
          module.resolveSibling(DescriptionCodec.resourceOf(module.getFileName().toString()))));
      Set<Integer> capabilities = new TreeSet<>(List.of(CAPABILITY_SHADER));
      Set<String> extensions = new TreeSet<>();
      for (DeviceFeature feature : description.features()) {
        capabilities.addAll(feature.capabilities());
        extensions.addAll(feature.spirvExtensions());
      }
      Set<Integer> declaredCapabilities = new TreeSet<>();
      Set<String> declaredExtensions = new TreeSet<>();
      ByteBuffer words = ByteBuffer.wrap(Files.readAllBytes(module)).order(ByteOrder.LITTLE_ENDIAN);
      for (int at = 20; at < words.limit(); at += 4 * (words.getInt(at) >>> 16)) {
        int opcode = words.getInt(at) & 0xffff;
        if (opcode == OP_CAPABILITY) {
          declaredCapabilities.add(words.getInt(at + 4));
        } else if (opcode == OP_EXTENSION) {
          int end = at + 4;
          while (words.get(end) != 0) {
            end++;
          }
          declaredExtensions.add(new String(words.array(), at + 4, end - at - 4, java.nio.charset.StandardCharsets.UTF_8));
        }
      }
      assertEquals(capabilities, declaredCapabilities, module + ": its capabilities, by " + description.features());
      assertEquals(extensions, declaredExtensions, module + ": its extensions, by " + description.features());
      needed.addAll(description.features());
    }
    assertEquals(EnumSet.complementOf(EnumSet.of(DeviceFeature.TENSOR_LAYOUTS)), needed,
        "the features some module needs");
  }
}
