package dev.kiln.processor.spirv;

import static com.google.common.truth.Truth.assertWithMessage;

import dev.kiln.abi.DeviceFeature;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.lwjgl.util.spvc.Spv;

/**
 * The capability numbers of the device-feature table ({@link DeviceFeature.Capability}, which the
 * dependency-free annotations module spells out) are SPIR-V's, as the writer's LWJGL constants name
 * them: each constant matches the {@code SpvCapability} field of its name.
 */
class CapabilityNumbersTest {
  @Test
  void eachCapabilityOfTheTableIsSpirvsOfItsName() throws IllegalAccessException {
    List<Field> spirv =
        Arrays.stream(Spv.class.getFields())
            .filter(
                field ->
                    field.getName().startsWith("SpvCapability") && field.getType() == int.class)
            .toList();
    Field[] table = DeviceFeature.Capability.class.getFields();
    assertWithMessage("the table's capabilities").that(table.length).isAtLeast(20);
    for (Field capability : table) {
      if (!Modifier.isStatic(capability.getModifiers())) {
        continue;
      }
      String name = capability.getName().replace("_", "").toLowerCase(Locale.ROOT);
      List<Field> named =
          spirv.stream().filter(field -> normalized(field.getName()).equals(name)).toList();
      assertWithMessage("SpvCapability fields named like %s", capability.getName())
          .that(named)
          .isNotEmpty();
      for (Field field : named) {
        assertWithMessage("%s against %s", capability.getName(), field.getName())
            .that(capability.getInt(null))
            .isEqualTo(field.getInt(null));
      }
    }
  }

  /**
   * {@code SpvCapabilityAtomicFloat32AddEXT} as {@code atomicfloat32add}: no prefix, no KHR or EXT,
   * lower case.
   */
  private static String normalized(String field) {
    String name = field.substring("SpvCapability".length());
    for (String vendor : List.of("KHR", "EXT")) {
      if (name.endsWith(vendor)) {
        name = name.substring(0, name.length() - vendor.length());
      }
    }
    return name.toLowerCase(Locale.ROOT);
  }
}
