package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.abi.DeviceFeature;
import dev.kiln.abi.LaunchAbi;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A SPIR-V module under construction: one word list per section of the logical layout (spec 2.4),
 * written out in the order the specification requires, one id allocator, and deduplicated types and
 * constants.
 */
final class SpirvModule {
  /** SPIR-V 1.3, the version Vulkan 1.1 consumes. */
  static final int VERSION_1_3 = 0x00010300;

  private final Words capabilities = new Words();
  private final Words extensions = new Words();
  private final Words extInstImports = new Words();
  final Words memoryModel = new Words();
  final Words entryPoints = new Words();
  final Words executionModes = new Words();
  final Words names = new Words();
  private final Map<List<Integer>, Integer> runtimeArrays = new HashMap<>();
  final Words decorations = new Words();
  final Words globals = new Words();
  final Words functions = new Words();

  private final Set<Integer> declaredCapabilities = new HashSet<>();
  private final Set<String> declaredExtensions = new HashSet<>();

  /** What the module needs of a device, for its description. */
  private final Set<DeviceFeature> features = EnumSet.noneOf(DeviceFeature.class);

  /** The bindings of buffers a launch may pass one array for together with another. */
  private Set<Integer> aliasedBindings = Set.of();

  private final Map<List<Integer>, Integer> types = new HashMap<>();

  /** Each type's declaration, opcode and operands, by its id. */
  private final Map<Integer, List<Integer>> typeDeclarations = new HashMap<>();

  /** The bits of each 32-bit constant, by its id. */
  private final Map<Integer, Integer> constantBits = new HashMap<>();

  /** The lengths of array types that parameters give ({@link ParameterLengths}). */
  final Set<Integer> parameterSizes = new HashSet<>();

  /** The workgroup memory the module's variables take, in bytes. */
  private long workgroupBytes;

  private int glsl;

  /** The specialization constant {@link #halfConversionExact} declares, 0 before it does. */
  private int halfConversionExact;

  private final Map<List<Integer>, Integer> constants = new HashMap<>();
  private int bound = 1;

  int id() {
    return bound++;
  }

  /**
   * Declares {@code capability} once: the capabilities of Vulkan 1.1's core compute; the others
   * through {@link #require}.
   */
  void capability(int capability) {
    if (declaredCapabilities.add(capability)) {
      capabilities.op(SpvOpCapability, capability);
    }
  }

  /**
   * Declares what {@code feature}'s row names, capabilities and extensions, each once, and lists
   * the feature.
   */
  void require(DeviceFeature feature) {
    feature.capabilities().forEach(this::capability);
    for (String name : feature.spirvExtensions()) {
      if (declaredExtensions.add(name)) {
        extensions.opWithString(SpvOpExtension, new int[0], name);
      }
    }
    features.add(feature);
  }

  boolean requires(DeviceFeature feature) {
    return features.contains(feature);
  }

  /**
   * The bytes a value of {@code type} takes in workgroup memory: scalars their width (a bool 4),
   * vectors, arrays and structures their members'.
   */
  long bytesOf(int type) {
    List<Integer> declaration = typeDeclarations.get(type);
    return switch (declaration.getFirst()) {
      case SpvOpTypeInt, SpvOpTypeFloat -> declaration.get(1) / 8;
      case SpvOpTypeBool -> 4;
      case SpvOpTypeVector -> bytesOf(declaration.get(1)) * declaration.get(2);
      case SpvOpTypeArray ->
          parameterSizes.contains(declaration.get(2))
              ? 0 // the launch's length: the description counts it (ParameterLengths)
              : bytesOf(declaration.get(1))
                  * Integer.toUnsignedLong(constantBits.get(declaration.get(2)));
      case SpvOpTypeStruct -> declaration.stream().skip(1).mapToLong(this::bytesOf).sum();
      default ->
          throw new IllegalStateException(
              "no size for a value of type " + declaration + " in workgroup memory");
    };
  }

  void addWorkgroupBytes(long bytes) {
    workgroupBytes += bytes;
  }

  /** The workgroup memory the module's variables take, in bytes. */
  long sharedBytes() {
    return workgroupBytes;
  }

  /** What the module needs of a device. */
  Set<DeviceFeature> features() {
    return Set.copyOf(features);
  }

  /**
   * The boolean specialization constant {@link LaunchAbi#HALF_CONVERSION_SPEC_ID}, declared on
   * first use: whether the device's binary16 conversion keeps subnormals, which the module then
   * asks of it ({@link #convertsHalves}).
   */
  int halfConversionExact() {
    if (halfConversionExact == 0) {
      halfConversionExact = id();
      globals.op(SpvOpSpecConstantFalse, typeBool(), halfConversionExact);
      decorate(halfConversionExact, SpvDecorationSpecId, LaunchAbi.HALF_CONVERSION_SPEC_ID);
      name(halfConversionExact, "halfConversionExact");
    }
    return halfConversionExact;
  }

  /** Whether the module converts binary16 bits with the device's conversion somewhere. */
  boolean convertsHalves() {
    return halfConversionExact != 0;
  }

  /** The id of the GLSL.std.450 extended instruction set, imported on first use. */
  int glsl() {
    if (glsl == 0) {
      glsl = id();
      extInstImports.opWithString(SpvOpExtInstImport, new int[] {glsl}, "GLSL.std.450");
    }
    return glsl;
  }

  int typeDouble() {
    require(DeviceFeature.FLOAT64);
    return type(SpvOpTypeFloat, 64);
  }

  /**
   * The id of the type declared by {@code opcode} with {@code operands} after the result id,
   * declaring it on first use.
   */
  int type(int opcode, int... operands) {
    List<Integer> key = key(opcode, operands);
    Integer known = types.get(key);
    if (known != null) {
      return known;
    }
    int id = id();
    globals.op(opcode, prepend(id, operands));
    types.put(key, id);
    typeDeclarations.put(id, key);
    return id;
  }

  int typeVoid() {
    return type(SpvOpTypeVoid);
  }

  int typeBool() {
    return type(SpvOpTypeBool);
  }

  int typeInt() {
    return type(SpvOpTypeInt, 32, 1);
  }

  int typeUint() {
    return type(SpvOpTypeInt, 32, 0);
  }

  int typeFloat() {
    return type(SpvOpTypeFloat, 32);
  }

  /**
   * An unsigned 8- or 16-bit int, for buffer elements only: with the storage capabilities a module
   * may load, store and convert such values, and compute with none (the Int8 and Int16 capabilities
   * it does not declare).
   */
  int typeStorageInt(int bits) {
    require(bits == 8 ? DeviceFeature.STORAGE_8BIT : DeviceFeature.STORAGE_16BIT);
    return type(SpvOpTypeInt, bits, 0);
  }

  /** Whether {@code type} is the 64-bit int type, without declaring it. */
  boolean isLong(int type) {
    Integer known = types.get(key(SpvOpTypeInt, new int[] {64, 1}));
    return known != null && known == type;
  }

  int typeLong() {
    require(DeviceFeature.INT64);
    return type(SpvOpTypeInt, 64, 1);
  }

  int typePointer(int storageClass, int pointee) {
    return type(SpvOpTypePointer, storageClass, pointee);
  }

  /** A 32-bit constant of {@code type} with the given bits. */
  int constant(int type, int bits) {
    List<Integer> key = List.of(SpvOpConstant, type, bits);
    Integer known = constants.get(key);
    if (known != null) {
      return known;
    }
    int id = id();
    globals.op(SpvOpConstant, type, id, bits);
    constants.put(key, id);
    constantBits.put(id, bits);
    return id;
  }

  /** The all-zero value of {@code type}. */
  int constantNull(int type) {
    List<Integer> key = List.of(SpvOpConstantNull, type);
    Integer known = constants.get(key);
    if (known != null) {
      return known;
    }
    int id = id();
    globals.op(SpvOpConstantNull, type, id);
    constants.put(key, id);
    return id;
  }

  /** A 64-bit constant of {@code type}: low word first. */
  int constant64(int type, long bits) {
    List<Integer> key = List.of(SpvOpConstant, type, (int) bits, (int) (bits >>> 32));
    Integer known = constants.get(key);
    if (known != null) {
      return known;
    }
    int id = id();
    globals.op(SpvOpConstant, type, id, (int) bits, (int) (bits >>> 32));
    constants.put(key, id);
    return id;
  }

  int constantLong(long value) {
    return constant64(typeLong(), value);
  }

  int constantDouble(double value) {
    return constant64(typeDouble(), Double.doubleToRawLongBits(value));
  }

  int constantInt(int value) {
    return constant(typeInt(), value);
  }

  int constantUint(int value) {
    return constant(typeUint(), value);
  }

  int constantFloat(float value) {
    return constant(typeFloat(), Float.floatToRawIntBits(value));
  }

  int constantBool(boolean value) {
    int opcode = value ? SpvOpConstantTrue : SpvOpConstantFalse;
    List<Integer> key = List.of(opcode);
    Integer known = constants.get(key);
    if (known != null) {
      return known;
    }
    int id = id();
    globals.op(opcode, typeBool(), id);
    constants.put(key, id);
    return id;
  }

  void decorate(int target, int decoration, int... operands) {
    decorations.op(SpvOpDecorate, prepend(target, prepend(decoration, operands)));
  }

  void decorateMember(int structType, int member, int decoration, int... operands) {
    decorations.op(
        SpvOpMemberDecorate, prepend(structType, prepend(member, prepend(decoration, operands))));
  }

  /**
   * A new block type for one storage buffer variable, holding a runtime array of {@code
   * elementType} with {@code stride}. The runtime array is declared once per module, but each
   * variable gets a block of its own, as glslang emits them: NVIDIA's driver 580 applies one
   * variable's NonWritable to every variable of the same block type, so a writable buffer sharing
   * its block with a read-only one lost its own earlier stores on the H200 (docs/DRIVER-GAPS.md).
   */
  int storageBlock(int elementType, int stride) {
    int array =
        runtimeArrays.computeIfAbsent(
            List.of(elementType, stride),
            key -> {
              int id = type(SpvOpTypeRuntimeArray, elementType);
              decorate(id, SpvDecorationArrayStride, stride);
              return id;
            });
    int block = id();
    globals.op(SpvOpTypeStruct, block, array);
    decorate(block, SpvDecorationBlock);
    decorateMember(block, 0, SpvDecorationOffset, 0);
    return block;
  }

  void name(int target, String name) {
    names.opWithString(SpvOpName, new int[] {target}, name);
  }

  void memberName(int structType, int member, String name) {
    names.opWithString(SpvOpMemberName, new int[] {structType, member}, name);
  }

  /** Sets the bindings of buffers that a launch may pass one array for together with another. */
  void aliasedBindings(Set<Integer> bindings) {
    aliasedBindings = Set.copyOf(bindings);
  }

  /** Whether a launch may pass the array of buffer {@code binding} for another buffer too. */
  boolean isAliased(int binding) {
    return aliasedBindings.contains(binding);
  }

  /** The module's binary, little-endian. */
  byte[] toBytes() {
    Words all = new Words();
    all.add(SpvMagicNumber);
    all.add(VERSION_1_3);
    all.add(0); // generator: unregistered
    all.add(bound);
    all.add(0); // schema
    for (Words section :
        List.of(
            capabilities,
            extensions,
            extInstImports,
            memoryModel,
            entryPoints,
            executionModes,
            names,
            decorations,
            globals,
            functions)) {
      all.addAll(section);
    }
    ByteBuffer bytes = ByteBuffer.allocate(all.size() * 4).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < all.size(); i++) {
      bytes.putInt(all.get(i));
    }
    return bytes.array();
  }

  private static List<Integer> key(int opcode, int[] operands) {
    Integer[] key = new Integer[operands.length + 1];
    key[0] = opcode;
    for (int i = 0; i < operands.length; i++) {
      key[i + 1] = operands[i];
    }
    return List.of(key);
  }

  static int[] prepend(int first, int[] rest) {
    int[] all = new int[rest.length + 1];
    all[0] = first;
    System.arraycopy(rest, 0, all, 1, rest.length);
    return all;
  }
}
