/**
 * JMH benchmarks of what runs on the host: the CPU backend against plain Java, CPU fusion's two
 * forms, launch overhead, start-up, the processor's compile time, the cost of dropped arrays, and
 * of asking whether a launch settles its bounds checks.
 */
package dev.kiln.bench.host;
