/**
 * Kiln inside Apache Spark: {@link dev.kiln.spark.KilnPlugin} opens one {@link dev.kiln.Device} per
 * GPU address Spark gives an executor, once per executor JVM, and closes them when the executor
 * stops; a task takes its device from {@link dev.kiln.spark.ExecutorDevices#forTask()} and runs
 * kernels through the generated launchers on its partition's arrays.
 */
package dev.kiln.spark;
