package dev.kiln.processor.lower;

import static com.google.common.truth.Truth.assertWithMessage;

import dev.kiln.Gpu;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code dev.kiln.Gpu}'s methods and the lowering are tied: every public method of {@code Gpu} is a
 * row of {@link Library} (by javac's signature) or one of the methods lowered elsewhere ({@link
 * CallLowering#lowersOutsideLibrary}), and every row of {@code Library} for {@code Gpu} names a
 * method {@code Gpu} has, so that a misspelt row cannot stand unused.
 */
class GpuMethodsTest {
  private static final String GPU = "dev.kiln.Gpu.";

  @Test
  void everyGpuMethodIsLowered() {
    List<String> unlowered =
        gpuMethods().stream()
            .filter(
                method ->
                    !Library.has(signature(method))
                        && !CallLowering.lowersOutsideLibrary(method.getName()))
            .map(GpuMethodsTest::signature)
            .toList();
    assertWithMessage("Gpu methods no lowering knows").that(unlowered).isEmpty();
  }

  @Test
  void everyGpuRowOfTheLibraryNamesAGpuMethod() {
    Set<String> methods =
        gpuMethods().stream().map(GpuMethodsTest::signature).collect(Collectors.toSet());
    Set<String> rows = new TreeSet<>(Library.signatures());
    rows.removeIf(row -> !row.startsWith(GPU));
    assertWithMessage("Library rows for Gpu").that(rows.size()).isAtLeast(40);
    rows.removeAll(methods);
    assertWithMessage("Library rows that name no Gpu method").that(rows).isEmpty();
  }

  @Test
  void theMethodsLoweredElsewhereAreGpus() {
    Set<String> names = gpuMethods().stream().map(Method::getName).collect(Collectors.toSet());
    List<String> elsewhere =
        List.of(
            "barrier",
            "storeAccumulator",
            "loadMatrixA",
            "loadMatrixB",
            "loadAccumulator",
            "fillAccumulator",
            "multiplyAdd",
            "scaleAccumulator",
            "addAccumulators",
            "globalId",
            "localId",
            "workgroupId",
            "numWorkgroups",
            "atomicAdd",
            "sharedFloats",
            "sharedPackedShorts");
    for (String name : elsewhere) {
      assertWithMessage("%s: Gpu has it and the lowering knows it", name)
          .that(names.contains(name) && CallLowering.lowersOutsideLibrary(name))
          .isTrue();
    }
    for (String name : CallLowering.STATEMENTS) {
      assertWithMessage("statement %s", name).that(names).contains(name);
    }
    for (String name : MatrixTypes.OPERATIONS) {
      assertWithMessage("matrix operation %s", name).that(names).contains(name);
    }
  }

  private static List<Method> gpuMethods() {
    return Arrays.stream(Gpu.class.getDeclaredMethods())
        .filter(
            method ->
                Modifier.isPublic(method.getModifiers())
                    && Modifier.isStatic(method.getModifiers()))
        .toList();
  }

  /** The method as javac writes its signature: {@code dev.kiln.Gpu.atomicAdd(int[],int,int)}. */
  private static String signature(Method method) {
    return GPU
        + method.getName()
        + Arrays.stream(method.getParameterTypes())
            .map(Class::getTypeName)
            .collect(Collectors.joining(",", "(", ")"));
  }
}
