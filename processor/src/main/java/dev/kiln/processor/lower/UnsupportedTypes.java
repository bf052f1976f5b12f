package dev.kiln.processor.lower;

import com.sun.source.tree.Tree;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.diag.KernelError;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;

/** {@code kiln.unsupported.type} errors, each with the fix that suits what the type is for. */
final class UnsupportedTypes {
  private UnsupportedTypes() {}

  /**
   * The error for a value, local or parameter of {@code type} (a TypeMirror or a type's name) at
   * {@code tree}.
   */
  static KernelError error(Tree tree, Object type) {
    return new KernelError(tree, Errors.unsupportedType(type, fix(type)));
  }

  private static String fix(Object type) {
    String name = type.toString();
    if (type instanceof ArrayType array) {
      return array.getComponentType() instanceof ArrayType
          ? "flatten it into one array indexed 'a[row * columns + column]'"
          : "use a primitive array";
    }
    if (name.equals("java.lang.String")) {
      return "to see values, write them into an int[] or float[] parameter kept for debugging and print it after the launch";
    }
    if (type instanceof TypeMirror mirror && isFunctional(mirror)) {
      return "move the code into a static helper method of the kernel's class and call it";
    }
    if (RANDOMS.contains(name)) {
      return "derive each invocation's numbers from its index and a seed parameter with an integer hash"
          + " (say 'int h = (i + seed) * 0x9E3779B9; h ^= h >>> 16;'), which every device and Java compute alike";
    }
    if (type instanceof DeclaredType declared && isCollection(declared.asElement())) {
      return "keep the items in a private array with a count: 'int[] items = new int[16]; int size = 0;'";
    }
    return switch (name) {
      case "java.lang.Integer",
          "java.lang.Long",
          "java.lang.Float",
          "java.lang.Double",
          "java.lang.Boolean" ->
          "use the primitive type, "
              + name.substring("java.lang.".length()).toLowerCase().replace("integer", "int");
      default ->
          name.startsWith("java.") || name.startsWith("javax.")
              ? "compute with primitive values"
              : "keep the object's fields in primitive locals ('float vx = ...; float vy = ...;'), and pass arrays of"
                  + " objects as one primitive array per field";
    };
  }

  /**
   * The JDK's random number generators: state shared by every call, where invocations need numbers
   * of their own.
   */
  private static final java.util.Set<String> RANDOMS =
      java.util.Set.of(
          "java.util.Random",
          "java.util.SplittableRandom",
          "java.util.concurrent.ThreadLocalRandom",
          "java.security.SecureRandom",
          "java.util.random.RandomGenerator");

  private static boolean isFunctional(TypeMirror type) {
    return type instanceof DeclaredType declared
        && declared.asElement().getAnnotation(FunctionalInterface.class) != null;
  }

  /**
   * Whether {@code element} is a {@code java.util.Collection} or {@code Map}, or implements one.
   */
  private static boolean isCollection(Element element) {
    if (!(element instanceof TypeElement type)) {
      return false;
    }
    String name = type.getQualifiedName().toString();
    if (name.equals("java.util.Collection") || name.equals("java.util.Map")) {
      return true;
    }
    java.util.List<TypeMirror> supertypes = new java.util.ArrayList<>(type.getInterfaces());
    supertypes.add(type.getSuperclass());
    return supertypes.stream()
        .anyMatch(
            supertype ->
                supertype instanceof DeclaredType declared && isCollection(declared.asElement()));
  }
}
