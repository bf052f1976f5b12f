package dev.kiln.vulkan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryStack;

/**
 * Opening a device takes a small, fixed part of LWJGL's thread stack, however many extensions and
 * layers the driver lists: NVIDIA's 580 driver lists about 200 device extensions, which overflowed
 * the 64 KiB stack when their properties were read onto it.
 */
class StackUseTest {
  /** What opening may use; lavapipe's extension list alone, held on the stack, is about 28 KiB. */
  private static final int BUDGET = 12 * 1024;

  @Test
  void openingADeviceFitsInAFewKibibytesOfStack() throws InterruptedException {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread opener =
        new Thread(
            () -> {
              try (MemoryStack stack = MemoryStack.stackPush()) {
                stack.malloc(
                    stack.getPointer() - BUDGET); // leaves BUDGET bytes free on this thread's stack
                TestBackends.open(false).close();
              } catch (Throwable e) {
                failure.set(e);
              }
            });
    opener.start();
    opener.join();
    if (failure.get() instanceof org.opentest4j.TestAbortedException skip) {
      throw skip;
    }
    assertEquals(
        null,
        failure.get(),
        () -> "opening needs more than " + BUDGET + " bytes of stack: " + failure.get());
  }
}
