package dev.kiln.processor.lower;

import com.sun.source.tree.Tree;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.diag.KernelError;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;

/** {@code kiln.unsupported.type} errors, each with the fix that suits what the type is for. */
final class UnsupportedTypes {
  private UnsupportedTypes() {}

  /** The error for a value, local or parameter of {@code type} (a TypeMirror or a type's name) at {@code tree}. */
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
    if (name.startsWith("java.util.") && type instanceof DeclaredType) {
      return "keep the items in a private array with a count: 'int[] items = new int[16]; int size = 0;'";
    }
    if (type instanceof TypeMirror mirror && isFunctional(mirror)) {
      return "move the code into a static helper method of the kernel's class and call it";
    }
    return switch (name) {
      case "java.lang.Integer", "java.lang.Long", "java.lang.Float", "java.lang.Double", "java.lang.Boolean" ->
          "use the primitive type, " + name.substring("java.lang.".length()).toLowerCase().replace("integer", "int");
      default -> "compute with primitive values";
    };
  }

  private static boolean isFunctional(TypeMirror type) {
    return type instanceof DeclaredType declared
        && declared.asElement().getAnnotation(FunctionalInterface.class) != null;
  }
}
