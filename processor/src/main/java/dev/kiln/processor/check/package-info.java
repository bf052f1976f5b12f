/**
 * Checks of a lowered body that need no analysis across kernels: private and workgroup array
 * lengths and placement, declared buffer access against the body, barriers in uniform control flow,
 * read-modify-write races.
 */
package dev.kiln.processor.check;
