package dev.kiln.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kiln.Device;
import dev.kiln.abi.KernelSpec;
import dev.kiln.access.LaunchAccess;
import dev.kiln.backend.KernelDescriptions;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a spec does with its launcher's lookup, and the messages where it cannot: a lookup that is
 * not its launcher's, a missing module, a twin the lookup cannot reach; and the launch entry points
 * {@code Device} installs once.
 */
class KernelSpecTest {
  private static final MethodType TWIN =
      MethodType.methodType(
          void.class,
          Object[].class,
          int[].class,
          int.class,
          int.class,
          int.class,
          int.class,
          int.class);

  private static KernelSpec spec(MethodHandles.Lookup lookup, Class<?> owner, String module) {
    return new KernelSpec(lookup, owner, "k", module, new int[] {64, 1, 1}, List.of(), args -> {});
  }

  @Test
  void aLookupThatIsNotTheLaunchersIsRefused() {
    IllegalArgumentException refusal =
        assertThrows(
            IllegalArgumentException.class,
            () -> spec(MethodHandles.publicLookup(), KernelSpecTest.class, "k.spv"));
    assertEquals(
        "the lookup of dev.kiln.internal.KernelSpecTest's kernel k must be MethodHandles.lookup() of a class"
            + " in its package, not java.lang.Object/publicLookup",
        refusal.getMessage());
  }

  @Test
  void aKernelWithoutADescriptionHasTheOneItsDeclarationsGive() {
    KernelSpec spec = spec(MethodHandles.lookup(), KernelSpecTest.class, "no-such-module.spv");
    assertEquals(java.util.Optional.empty(), spec.description());
    assertEquals(KernelDescriptions.declared(spec), KernelDescriptions.of(spec));
  }

  @Test
  void aClassWithoutTwinsHasNone() {
    assertEquals(
        false,
        spec(MethodHandles.lookup(), KernelSpecTest.class, "k.spv").cpuTwin(TWIN).isPresent());
  }

  @Test
  void aTwinTheLookupCannotReachIsAnErrorNotAFallback() {
    KernelSpec spec = spec(MethodHandles.lookup(), UnreachableTwin.class, "k.spv");
    IllegalStateException unreachable =
        assertThrows(IllegalStateException.class, () -> spec.cpuTwin(TWIN));
    assertEquals(
        "the CPU twin of dev.kiln.internal.UnreachableTwin#k is out of its launcher's reach",
        unreachable.getMessage());
  }

  @Test
  void theLaunchEntryPointsAreInstalledOnce() throws Exception {
    MethodHandles.lookup().ensureInitialized(Device.class);
    IllegalStateException again =
        assertThrows(
            IllegalStateException.class, () -> LaunchAccess.install(LaunchAccess.launcher()));
    assertEquals("the launcher is installed already", again.getMessage());
  }

  @Test
  void aHandDescriptionMustNameEveryParameter() {
    KernelSpec spec = spec(MethodHandles.lookup(), KernelSpecTest.class, "k.spv");
    dev.kiln.abi.KernelDescription twoParameters =
        new dev.kiln.abi.KernelDescription(
            java.util.Set.of(),
            1,
            false,
            0,
            List.of(),
            List.of(dev.kiln.annotations.Access.READ, dev.kiln.annotations.Access.READ),
            List.of(),
            List.of(),
            List.of(),
            dev.kiln.abi.SplitForm.UNKNOWN);
    assertEquals(
        "dev.kiln.internal.KernelSpecTest#k has 0 parameters; the description names 2",
        assertThrows(IllegalArgumentException.class, () -> spec.describedBy(twoParameters))
            .getMessage());
  }

  @Test
  void aDamagedDescriptionIsNamedWithItsKernel() {
    KernelSpec spec = spec(MethodHandles.lookup(), KernelSpecTest.class, "damaged.spv");
    IllegalStateException damaged = assertThrows(IllegalStateException.class, spec::description);
    assertEquals(
        "cannot read damaged.kiln, the description of dev.kiln.internal.KernelSpecTest#k",
        damaged.getMessage());
    assertEquals("not a Kiln kernel description", damaged.getCause().getMessage());
  }
}

/** A kernel class whose twin class exists but keeps its method private. */
final class UnreachableTwin {
  private UnreachableTwin() {}
}

/**
 * The twin of {@link UnreachableTwin}, with the method out of reach (not a nestmate of the test).
 */
final class UnreachableTwin$KilnCpu {
  private UnreachableTwin$KilnCpu() {}

  @SuppressWarnings("unused")
  private static void kernel$k(
      Object[] args, int[] grids, int x, int y, int z, int first, int end) {}
}
