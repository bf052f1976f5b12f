package dev.kiln.processor.ir;

/** The invocation-id built-ins, read through {@code Gpu} intrinsics. */
public enum Builtin {
  GLOBAL_ID("globalId"),
  LOCAL_ID("localId"),
  WORKGROUP_ID("workgroupId"),
  NUM_WORKGROUPS("numWorkgroups");

  private final String intrinsic;

  Builtin(String intrinsic) {
    this.intrinsic = intrinsic;
  }

  /** The name of the {@code dev.kiln.Gpu} method that reads it. */
  public String intrinsic() {
    return intrinsic;
  }
}
