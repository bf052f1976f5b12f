package com.example;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.kiln.Device;
import dev.kiln.FloatArray;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The generated launchers run the kernel and the fused group as plain Java would: on the best
 * device, on the CPU backend, and on Vulkan where there is a Vulkan device.
 */
class DevelopTest {
  private static final int N = 100_003;

  private static float[] random(long seed) {
    Random random = new Random(seed);
    float[] values = new float[N];
    for (int i = 0; i < N; i++) {
      values[i] = random.nextFloat() * 4f - 1f;
    }
    return values;
  }

  private static Device open(String selector) {
    try {
      return Device.open(selector);
    } catch (IllegalStateException e) {
      Assumptions.abort("no device '" + selector + "': " + e.getMessage());
      throw e;
    }
  }

  @ParameterizedTest(name = "device \"{0}\"")
  @ValueSource(strings = {"", "cpu", "vulkan"})
  void saxpyOnDeviceArraysAndOnJavaArrays(String selector) {
    float[] x = random(1);
    float[] y = random(2);
    float[] expected = y.clone();
    for (int i = 0; i < N; i++) {
      expected[i] = 2.5f * x[i] + expected[i];
    }
    try (Device device = open(selector)) {
      float[] onJava = y.clone();
      DevelopKernels.saxpy(device, N, 2.5f, x, onJava);
      assertArrayEquals(expected, onJava);
      try (FloatArray deviceX = device.upload(x); FloatArray deviceY = device.upload(y)) {
        DevelopKernels.saxpy(device, N, 2.5f, deviceX, deviceY);
        assertArrayEquals(expected, deviceY.toArray());
      }
    }
  }

  @ParameterizedTest(name = "device \"{0}\"")
  @ValueSource(strings = {"", "cpu", "vulkan"})
  void theFusedGroupGivesWhatItsArmsGiveOneAfterTheOther(String selector) {
    float[] pixels = random(3);
    float[] expected = pixels.clone();
    for (int i = 0; i < N; i++) {
      expected[i] = Math.min(Math.max(expected[i] * 1.5f, 0f), 1f);
    }
    try (Device device = open(selector)) {
      DevelopKernels.develop(device, N, pixels, 1.5f);
    }
    assertArrayEquals(expected, pixels);
  }
}
