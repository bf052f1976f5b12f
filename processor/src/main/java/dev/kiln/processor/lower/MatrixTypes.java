package dev.kiln.processor.lower;

import dev.kiln.processor.ir.Fragment;
import java.util.Optional;
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
