package dev.kiln.processor.spirv;

import dev.kiln.processor.ir.PrimType;

/**
 * An array the kernel indexes ({@link MemoryAccess}): a storage buffer (runtime length, {@code
 * length < 0}) or a shared or private array (constant length, or for a workgroup array a parameter
 * sizes, {@code parameterLength}: the id of the uint specialization constant that holds it, else
 * 0). {@code faultTag} names it in a fault record. A shared or private array that a copy moves may
 * be held as {@code quads} ({@link QuadArrays}).
 */
record ArrayVariable(
    int variable,
    int storageClass,
    PrimType element,
    int length,
    int parameterLength,
    int faultTag,
    int storageType,
    boolean narrowStorage,
    boolean quads) {}
