package dev.kiln.abi;

import static dev.kiln.abi.Forms.proof;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kiln.annotations.Access;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A description reads back as written, every field and every form of it; what is not one is
 * refused.
 */
class DescriptionCodecTest {
  private static final KernelDescription FULL =
      new KernelDescription(
          EnumSet.of(DeviceFeature.FLOAT64, DeviceFeature.SUBGROUPS, DeviceFeature.TENSOR_LAYOUTS),
          4,
          true,
          16384,
          List.of(new SharedLength(2, LaunchAbi.SHARED_LENGTH_SPEC_IDS_FROM, 12)),
          List.of(Access.READ, Access.WRITE, Access.READ_WRITE, Access.READ),
          List.of(
              new LaunchBound(
                  1L << 31,
                  List.of(LaunchForm.ofScalars(-1, Map.of("3", 2L)), LaunchForm.roundedGrid(1, 2)),
                  "c[row * cols + col] at line 9"),
              new LaunchBound(0, List.of(LaunchForm.of(-7)), "")),
          List.of(
              proof(
                  "0+1*g0+1*g1*s:3+1*c1.0+1*l2+1*w1*v7 | -1+1*n:2 | 1+-1*r0.1 | 2147483647+1*s:3 | in[i] at line 4"),
              proof("0+1*g0 | - | - | - | out[i] at line 5")),
          List.of(new AliasConflict(1, 2), new AliasConflict(0, 2)),
          split());

  private static SplitForm split() {
    Map<Integer, SplitForm.Share> shares = new LinkedHashMap<>();
    shares.put(2, SplitForm.Share.sliced(4));
    shares.put(0, SplitForm.Share.ALL);
    shares.put(1, SplitForm.Share.sliced(1));
    shares.put(
        3,
        SplitForm.Share.near(List.of(LaunchForm.of(-1), LaunchForm.ofScalars(2, Map.of("4", 1L)))));
    return new SplitForm(shares, null);
  }

  @Test
  void everyFieldReadsBackAsWritten() {
    assertEquals(FULL, DescriptionCodec.read(DescriptionCodec.write(FULL)));
    assertEquals(
        List.copyOf(FULL.split().buffers().keySet()),
        List.copyOf(DescriptionCodec.read(DescriptionCodec.write(FULL)).split().buffers().keySet()),
        "in binding order");
  }

  @Test
  void anEmptyDescriptionAndARefusedSplitReadBack() {
    KernelDescription empty =
        new KernelDescription(
            Set.of(),
            1,
            false,
            0,
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            SplitForm.refused("it copies ranges of arrays"));
    assertEquals(empty, DescriptionCodec.read(DescriptionCodec.write(empty)));
  }

  @Test
  void eachFeatureReadsBack() {
    for (DeviceFeature feature : DeviceFeature.values()) {
      KernelDescription one =
          new KernelDescription(
              Set.of(feature),
              1,
              false,
              0,
              List.of(),
              List.of(),
              List.of(),
              List.of(),
              List.of(),
              SplitForm.UNKNOWN);
      assertEquals(Set.of(feature), DescriptionCodec.read(DescriptionCodec.write(one)).features());
    }
  }

  @Test
  void anAttributeThisKilnDoesNotKnowIsSkipped() throws IOException {
    byte[] written = DescriptionCodec.write(FULL);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.write(written, 0, 6); // magic and version
    out.writeShort(((written[6] & 0xff) << 8 | written[7] & 0xff) + 1);
    out.writeUTF("fromALaterKiln");
    out.writeInt(3);
    out.write(new byte[] {1, 2, 3});
    out.write(written, 8, written.length - 8);
    assertEquals(FULL, DescriptionCodec.read(bytes.toByteArray()));
  }

  @Test
  void whatIsNoDescriptionIsRefused() {
    byte[] written = DescriptionCodec.write(FULL);
    assertEquals(
        "not a Kiln kernel description",
        assertThrows(
                IllegalArgumentException.class,
                () -> DescriptionCodec.read(new byte[] {0, 1, 2, 3, 4, 5, 6, 7}))
            .getMessage());
    byte[] later = written.clone();
    later[5] = 9;
    assertEquals(
        "a kernel description of version 9; this Kiln reads 2. Fix: compile the kernels with the processor"
            + " of this Kiln's version",
        assertThrows(IllegalArgumentException.class, () -> DescriptionCodec.read(later))
            .getMessage());
    byte[] cut = java.util.Arrays.copyOf(written, written.length - 5);
    assertThrows(IllegalArgumentException.class, () -> DescriptionCodec.read(cut));
  }

  @Test
  void aDescriptionWithoutAnAttributeIsRefused() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(0x4b494c4e);
    out.writeShort(2);
    out.writeShort(0);
    assertEquals(
        "a kernel description without its 'features'",
        assertThrows(
                IllegalArgumentException.class, () -> DescriptionCodec.read(bytes.toByteArray()))
            .getMessage());
  }

  @Test
  void theResourceSitsBesideTheModule() {
    assertEquals("Sample.add.kiln", DescriptionCodec.resourceOf("Sample.add.spv"));
    assertEquals("Sample.pair.group.kiln", DescriptionCodec.resourceOf("Sample.pair.group.spv"));
  }
}
