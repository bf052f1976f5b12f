package dev.kiln.processor.spirv;

import dev.kiln.processor.ir.PrimType;

/**
 * An array the kernel indexes ({@link MemoryAccess}): a storage buffer (runtime length, {@code
 * length < 0}) or a shared or private array (constant length). {@code faultTag} names it in a fault
 * record. A shared or private array that a copy moves may be held as {@code quads} ({@link
 * QuadArrays}).
 */
record ArrayVariable(
    int variable,
    int storageClass,
    PrimType element,
    int length,
    int faultTag,
    int storageType,
    boolean narrowStorage,
    boolean quads) {}
