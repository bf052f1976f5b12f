package dev.kiln.processor.lower;

import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Local;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.Element;

/**
 * A local array variable that names buffer parameters ({@link BufferAliases}): every buffer its
 * method gives it, in order (a buffer's key is its position), the selector where there are several
 * or a condition chooses (null otherwise), and the buffers it may name at the point being lowered.
 */
final class BufferAlias {
  private final Element element;
  private final List<BufferDecl> ever;
  private final Local selector;
  private Set<BufferDecl> names = Set.of();

  BufferAlias(Element element, List<BufferDecl> ever, Local selector) {
    this.element = element;
    this.ever = List.copyOf(ever);
    this.selector = selector;
  }

  Element element() {
    return element;
  }

  List<BufferDecl> ever() {
    return ever;
  }

  Local selector() {
    return selector;
  }

  /** The buffers it may name here. */
  Set<BufferDecl> names() {
    return names;
  }

  /** From here on, it may name {@code buffers}. */
  void name(Set<BufferDecl> buffers) {
    names = Set.copyOf(buffers);
  }

  /**
   * What the variable names here: where the walk knows of no buffer yet (javac's definite
   * assignment makes that a path this walk does not follow), any buffer its method gives it.
   */
  ArrayRef ref() {
    Set<BufferDecl> named = names.isEmpty() ? Set.copyOf(ever) : names;
    if (named.size() == 1) {
      return new ArrayRef.Buffer(named.iterator().next());
    }
    List<BufferDecl> options = ever.stream().filter(named::contains).toList();
    return new ArrayRef.Chosen(selector, options, options.stream().map(ever::indexOf).toList());
  }
}
