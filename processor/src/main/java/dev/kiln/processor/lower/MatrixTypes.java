package dev.kiln.processor.lower;

import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import dev.kiln.processor.ir.Fragment;
import java.util.Optional;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;

/** The Java types of {@code dev.kiln.matrix} that hold a subgroup's matrix fragments. */
final class MatrixTypes {
  private MatrixTypes() {}

  private static final String PACKAGE = "dev.kiln.matrix.";

  /**
   * The {@code dev.kiln.Gpu} methods whose value is a matrix, which {@code MatrixLowering} lowers.
   */
  static final java.util.Set<String> OPERATIONS =
      java.util.Set.of(
          "loadMatrixA",
          "loadMatrixB",
          "loadAccumulator",
          "fillAccumulator",
          "multiplyAdd",
          "scaleAccumulator",
          "addAccumulators");

  /**
   * The simple name of a Java type that sets how a tile is held, {@code MatrixElement} or {@code
   * MatrixLayout}: a helper's parameter of such a type takes a constant ({@code
   * Scope.bindSetting}).
   */
  static Optional<String> setting(TypeMirror type) {
    if (!(type instanceof DeclaredType declared)) {
      return Optional.empty();
    }
    return switch (declared.asElement().toString()) {
      case PACKAGE + "MatrixElement" -> Optional.of("MatrixElement");
      case PACKAGE + "MatrixLayout" -> Optional.of("MatrixLayout");
      default -> Optional.empty();
    };
  }

  /**
   * The name of the {@code MatrixElement} or {@code MatrixLayout} constant that {@code argument}
   * is: the constant itself, or a parameter of the helper being inlined that one was passed for.
   */
  static Optional<String> constant(Trees trees, Scope scope, TreePath argument) {
    Element element = trees.getElement(TreePaths.unparenthesized(argument));
    if (element == null) {
      return Optional.empty();
    }
    return element.getKind() == ElementKind.ENUM_CONSTANT
        ? Optional.of(element.getSimpleName().toString())
        : scope.setting(element);
  }

  /**
   * The fragment use of a Java type: {@code MatrixA}, {@code MatrixB} or {@code MatrixAccumulator}.
   */
  static Optional<Fragment.Use> use(TypeMirror type) {
    if (!(type instanceof DeclaredType declared)) {
      return Optional.empty();
    }
    return switch (declared.asElement().toString()) {
      case PACKAGE + "MatrixA" -> Optional.of(Fragment.Use.A);
      case PACKAGE + "MatrixB" -> Optional.of(Fragment.Use.B);
      case PACKAGE + "MatrixAccumulator" -> Optional.of(Fragment.Use.ACCUMULATOR);
      default -> Optional.empty();
    };
  }
}
