/**
 * Launch overhead on a GPU: Kiln's launch paths against the same launches written with LWJGL by
 * hand, and the table they make.
 */
package dev.kiln.bench.launch;
