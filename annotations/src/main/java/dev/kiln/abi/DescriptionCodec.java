package dev.kiln.abi;

import dev.kiln.annotations.Access;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Writes and reads a {@link KernelDescription}, the resource {@link #resourceOf beside} a kernel's
 * module. The file is a magic number, a version, and named attributes, each its length and then its
 * value; one {@link Attribute} per field writes and reads it, shared by writer and reader as the
 * JDK's {@code java.lang.classfile.AttributeMapper}s are. A reader skips an attribute it does not
 * know, so a newer processor may add one; a missing attribute is refused.
 */
public final class DescriptionCodec {
  private DescriptionCodec() {}

  private static final int MAGIC = 0x4b494c4e; // "KILN"
  private static final int VERSION = 2; // 2: a split share names its reach

  /**
   * One field of a description: its name in the file, and how its value is written and read.
   *
   * @param <T> the value's type
   * @param name the attribute's name
   * @param field the value, of a description
   * @param writer writes a value
   * @param reader reads what {@code writer} wrote
   */
  record Attribute<T>(
      String name, Function<KernelDescription, T> field, Writer<T> writer, Reader<T> reader) {
    void write(KernelDescription description, DataOutputStream out) throws IOException {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      writer.write(new DataOutputStream(bytes), field.apply(description));
      out.writeUTF(name);
      out.writeInt(bytes.size());
      bytes.writeTo(out);
    }
  }

  /** Writes one value. */
  @FunctionalInterface
  interface Writer<T> {
    void write(DataOutputStream out, T value) throws IOException;
  }

  /** Reads one value. */
  @FunctionalInterface
  interface Reader<T> {
    T read(DataInputStream in) throws IOException;
  }

  private static final Attribute<Set<DeviceFeature>> FEATURES =
      new Attribute<>(
          "features",
          KernelDescription::features,
          (out, features) ->
              list(out, List.copyOf(features), (o, feature) -> o.writeUTF(feature.name())),
          in -> {
            Set<DeviceFeature> features = EnumSet.noneOf(DeviceFeature.class);
            features.addAll(list(in, i -> DeviceFeature.valueOf(i.readUTF())));
            return features;
          });
  private static final Attribute<Integer> ELEMENTS_PER_INVOCATION =
      new Attribute<>(
          "elementsPerInvocation",
          KernelDescription::elementsPerInvocation,
          DataOutputStream::writeInt,
          DataInputStream::readInt);
  private static final Attribute<Boolean> BARRIERS =
      new Attribute<>(
          "barriers",
          KernelDescription::usesBarriers,
          DataOutputStream::writeBoolean,
          DataInputStream::readBoolean);
  private static final Attribute<Long> SHARED_BYTES =
      new Attribute<>(
          "sharedBytes",
          KernelDescription::sharedBytes,
          DataOutputStream::writeLong,
          DataInputStream::readLong);
  private static final Attribute<List<SharedLength>> SHARED_LENGTHS =
      new Attribute<>(
          "sharedLengths",
          KernelDescription::sharedLengths,
          (out, lengths) ->
              list(
                  out,
                  lengths,
                  (o, length) -> {
                    o.writeInt(length.param());
                    o.writeInt(length.specId());
                    o.writeLong(length.bytesPerElement());
                  }),
          in -> list(in, i -> new SharedLength(i.readInt(), i.readInt(), i.readLong())));
  private static final Attribute<List<Access>> ACCESSES =
      new Attribute<>(
          "accesses",
          KernelDescription::accesses,
          (out, accesses) -> list(out, accesses, (o, access) -> o.writeUTF(access.name())),
          in -> list(in, i -> Access.valueOf(i.readUTF())));
  private static final Attribute<List<LaunchBound>> BOUNDS =
      new Attribute<>(
          "bounds",
          KernelDescription::bounds,
          (out, bounds) ->
              list(
                  out,
                  bounds,
                  (o, bound) -> {
                    o.writeLong(bound.limit());
                    list(o, bound.factors(), DescriptionCodec::form);
                    o.writeUTF(bound.reason());
                  }),
          in ->
              list(
                  in,
                  i ->
                      new LaunchBound(i.readLong(), list(i, DescriptionCodec::form), i.readUTF())));
  private static final Attribute<List<LaunchProof>> PROOFS =
      new Attribute<>(
          "proofs",
          KernelDescription::proofs,
          (out, proofs) ->
              list(
                  out,
                  proofs,
                  (o, proof) -> {
                    for (List<LaunchForm> forms :
                        List.of(
                            proof.targets(), proof.facts(), proof.unequal(), proof.requires())) {
                      list(o, forms, DescriptionCodec::form);
                    }
                    o.writeUTF(proof.access());
                  }),
          in ->
              list(
                  in,
                  i ->
                      new LaunchProof(
                          list(i, DescriptionCodec::form),
                          list(i, DescriptionCodec::form),
                          list(i, DescriptionCodec::form),
                          list(i, DescriptionCodec::form),
                          i.readUTF())));
  private static final Attribute<List<AliasConflict>> ALIAS_CONFLICTS =
      new Attribute<>(
          "aliasConflicts",
          KernelDescription::aliasConflicts,
          (out, conflicts) ->
              list(
                  out,
                  conflicts,
                  (o, conflict) -> {
                    o.writeInt(conflict.first());
                    o.writeInt(conflict.second());
                  }),
          in -> list(in, i -> new AliasConflict(i.readInt(), i.readInt())));
  private static final Attribute<SplitForm> SPLIT =
      new Attribute<>(
          "split",
          KernelDescription::split,
          (out, split) -> {
            out.writeBoolean(split.refusal() != null);
            if (split.refusal() != null) {
              out.writeUTF(split.refusal());
            } else {
              list(
                  out,
                  List.copyOf(split.buffers().entrySet()),
                  (o, buffer) -> {
                    o.writeInt(buffer.getKey());
                    o.writeUTF(buffer.getValue().role().name());
                    o.writeInt(buffer.getValue().stride());
                    list(o, buffer.getValue().reach(), DescriptionCodec::form);
                  });
            }
          },
          in -> {
            if (in.readBoolean()) {
              return SplitForm.refused(in.readUTF());
            }
            Map<Integer, SplitForm.Share> buffers = new LinkedHashMap<>();
            list(
                in,
                i ->
                    buffers.put(
                        i.readInt(),
                        new SplitForm.Share(
                            SplitForm.Role.valueOf(i.readUTF()),
                            i.readInt(),
                            list(i, DescriptionCodec::form))));
            return new SplitForm(buffers, null);
          });

  /** Every attribute, in the order they are written. */
  private static final List<Attribute<?>> ATTRIBUTES =
      List.of(
          FEATURES,
          ELEMENTS_PER_INVOCATION,
          BARRIERS,
          SHARED_BYTES,
          SHARED_LENGTHS,
          ACCESSES,
          BOUNDS,
          PROOFS,
          ALIAS_CONFLICTS,
          SPLIT);

  /**
   * The resource that holds the description of the module {@code module}: its name with {@code
   * .kiln} for {@code .spv}.
   *
   * @param module the module's resource name
   * @return the description's
   */
  public static String resourceOf(String module) {
    return (module.endsWith(".spv") ? module.substring(0, module.length() - 4) : module) + ".kiln";
  }

  /**
   * The description's bytes.
   *
   * @param description the description
   * @return what {@link #read} reads
   */
  public static byte[] write(KernelDescription description) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeShort(VERSION);
      out.writeShort(ATTRIBUTES.size());
      for (Attribute<?> attribute : ATTRIBUTES) {
        attribute.write(description, out);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array's stream does not fail
    }
    return bytes.toByteArray();
  }

  /**
   * The description {@link #write} wrote.
   *
   * @param bytes the bytes
   * @return the description
   * @throws IllegalArgumentException where the bytes are not a description this Kiln reads
   */
  public static KernelDescription read(byte[] bytes) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      if (in.readInt() != MAGIC) {
        throw new IllegalArgumentException("not a Kiln kernel description");
      }
      int version = in.readUnsignedShort();
      if (version != VERSION) {
        throw new IllegalArgumentException(
            "a kernel description of version "
                + version
                + "; this Kiln reads "
                + VERSION
                + ". Fix: compile the kernels with the processor of this Kiln's version");
      }
      Map<String, Attribute<?>> known = new HashMap<>();
      ATTRIBUTES.forEach(attribute -> known.put(attribute.name(), attribute));
      Map<Attribute<?>, Object> values = new HashMap<>();
      for (int count = in.readUnsignedShort(); count > 0; count--) {
        String name = in.readUTF();
        byte[] value = in.readNBytes(in.readInt());
        Attribute<?> attribute = known.get(name);
        if (attribute != null) {
          values.put(
              attribute,
              attribute.reader().read(new DataInputStream(new ByteArrayInputStream(value))));
        }
      }
      return new KernelDescription(
          value(values, FEATURES),
          value(values, ELEMENTS_PER_INVOCATION),
          value(values, BARRIERS),
          value(values, SHARED_BYTES),
          value(values, SHARED_LENGTHS),
          value(values, ACCESSES),
          value(values, BOUNDS),
          value(values, PROOFS),
          value(values, ALIAS_CONFLICTS),
          value(values, SPLIT));
    } catch (IOException | RuntimeException e) {
      throw e instanceof IllegalArgumentException refused
          ? refused
          : new IllegalArgumentException("a damaged Kiln kernel description: " + e, e);
    }
  }

  @SuppressWarnings("unchecked") // each attribute's value was read by its own reader
  private static <T> T value(Map<Attribute<?>, Object> values, Attribute<T> attribute) {
    if (!values.containsKey(attribute)) {
      throw new IllegalArgumentException(
          "a kernel description without its '" + attribute.name() + "'");
    }
    return (T) values.get(attribute);
  }

  private static void form(DataOutputStream out, LaunchForm form) throws IOException {
    out.writeLong(form.constant());
    list(
        out,
        List.copyOf(form.terms().entrySet()),
        (o, term) -> {
          o.writeUTF(term.getKey());
          o.writeLong(term.getValue());
        });
  }

  private static LaunchForm form(DataInputStream in) throws IOException {
    long constant = in.readLong();
    Map<String, Long> terms = new TreeMap<>();
    list(in, i -> terms.put(i.readUTF(), i.readLong()));
    return new LaunchForm(constant, terms);
  }

  private static <T> void list(DataOutputStream out, List<T> values, Writer<T> each)
      throws IOException {
    out.writeInt(values.size());
    for (T value : values) {
      each.write(out, value);
    }
  }

  private static <T> List<T> list(DataInputStream in, Reader<T> each) throws IOException {
    int size = in.readInt();
    if (size < 0) {
      throw new IOException("a list of " + size + " values");
    }
    List<T> values = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      values.add(each.read(in));
    }
    return values;
  }
}
