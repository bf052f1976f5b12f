package dev.kiln.processor.lower;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import dev.kiln.processor.ir.Site;
import java.util.ArrayList;
import java.util.List;

/**
 * Hands out the {@link Site}s of IR nodes and maps them back to their source trees, so that a pass
 * working on IR alone can have its findings reported at the exact expression. One per compilation:
 * the sites of every kernel and helper template are distinct, and a linked kernel holds both.
 */
public final class Sites {
  private record Origin(Tree tree, CompilationUnitTree unit) {}

  private final List<Origin> origins = new ArrayList<>();

  Site site(Tree tree, CompilationUnitTree unit, int line) {
    origins.add(new Origin(tree, unit));
    return new Site(line, origins.size() - 1);
  }

  public Tree tree(Site site) {
    return origins.get(site.id()).tree();
  }

  public CompilationUnitTree unit(Site site) {
    return origins.get(site.id()).unit();
  }
}
