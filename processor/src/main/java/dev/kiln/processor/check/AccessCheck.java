package dev.kiln.processor.check;

import dev.kiln.annotations.Access;
import dev.kiln.processor.analysis.Facts;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Program;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A buffer declared {@code @Buffer(READ)} must not be written, one declared {@code @Buffer(WRITE)}
 * must not be read (an atomic update does both); the error sits on the first access that breaks it.
 */
public final class AccessCheck {
  private AccessCheck() {}

  /**
   * @param declared each buffer's {@code @Buffer} access, by name; absent where none is declared
   */
  public static List<CheckError> check(Program program, Facts facts, Map<String, Access> declared) {
    List<CheckError> errors = new ArrayList<>();
    for (BufferDecl buffer : program.buffers()) {
      Access access = declared.get(buffer.name());
      if (access == null) {
        continue;
      }
      List<Facts.Access> uses = facts.usesOf(buffer.name());
      Optional<Facts.Access> firstWrite =
          uses.stream().filter(use -> use.kind().writes()).findFirst();
      Optional<Facts.Access> firstRead =
          uses.stream().filter(use -> use.kind() != Facts.Kind.WRITE).findFirst();
      if (access == Access.READ && firstWrite.isPresent()) {
        errors.add(
            new CheckError(
                firstWrite.get().site(),
                Errors.bufferAccess(
                    buffer.name(),
                    Access.READ,
                    "assignment writes",
                    firstRead.isEmpty() ? Access.WRITE : Access.READ_WRITE,
                    "assignment")));
      } else if (access == Access.WRITE && firstRead.isPresent()) {
        errors.add(
            new CheckError(
                firstRead.get().site(),
                Errors.bufferAccess(
                    buffer.name(), Access.WRITE, "expression reads", Access.READ_WRITE, "read")));
      }
    }
    return errors;
  }
}
