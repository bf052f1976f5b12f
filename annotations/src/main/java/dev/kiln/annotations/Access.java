package dev.kiln.annotations;

/** How a kernel uses a buffer parameter. */
public enum Access {
  /** The kernel only reads the buffer. */
  READ,
  /** The kernel only writes the buffer. */
  WRITE,
  /** The kernel reads and writes the buffer. */
  READ_WRITE
}
