package dev.kiln.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * Spark's local-cluster mode with two workers, each given its own GPU address by a fake discovery
 * script: each executor (a JVM of its own) runs its tasks on the device of its address, the results
 * are Java's, and the sample job's bins equal plain Spark's. The executors map every address to the
 * CPU backend ({@code -Dkiln.spark.device=cpu}): this machine need not have a GPU.
 */
class LocalClusterTest {
  @Test
  void eachExecutorUsesItsOwnAddress() throws Exception {
    Path home = sparkHome();
    SparkSession spark =
        SparkSession.builder()
            .master("local-cluster[2,1,1024]")
            .appName("kiln-cluster")
            .config("spark.ui.enabled", "false")
            .config("spark.plugins", KilnPlugin.class.getName())
            .config("spark.worker.resource.gpu.amount", "1")
            .config(
                "spark.worker.resource.gpu.discoveryScript",
                home.resolve("claim-gpu.sh").toString())
            .config("spark.executor.resource.gpu.amount", "1")
            .config("spark.task.resource.gpu.amount", "1")
            .config(
                "spark.executor.extraJavaOptions",
                System.getProperty("kiln.spark.executorFlags", "")
                    + " -D"
                    + ExecutorDevices.SELECTOR
                    + "=cpu")
            .getOrCreate();
    try {
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (spark.sparkContext().statusTracker().getExecutorInfos().length < 3
          && System.nanoTime() < deadline) {
        Thread.sleep(100); // the driver and two executors
      }
      List<SaxpyJob.Report> reports = SaxpyJob.run(spark, 200_000, 16);
      Map<Long, String> addressOf = new HashMap<>();
      for (SaxpyJob.Report report : reports) {
        assertEquals(0, report.differing(), report.toString());
        assertEquals("cpu", report.device(), report.toString());
        assertTrue(!report.address().isEmpty(), "a task without an address: " + report);
        String before = addressOf.putIfAbsent(report.pid(), report.address());
        assertTrue(
            before == null || before.equals(report.address()),
            "executor " + report.pid() + " used addresses " + before + " and " + report.address());
      }
      assertEquals(
          2, addressOf.size(), "tasks ran in " + addressOf.keySet() + ", not in two executors");
      assertEquals(
          2,
          Set.copyOf(addressOf.values()).size(),
          "both executors used one address: " + addressOf);
      assertEquals(200_000, reports.stream().mapToInt(SaxpyJob.Report::elements).sum());
      Dataset<Float> pixels = DevelopJob.pixels(spark, 300_007, 6);
      assertArrayEquals(DevelopJob.plainSpark(pixels), DevelopJob.withKiln(pixels));
    } finally {
      spark.stop();
    }
  }

  /**
   * The Spark home that local-cluster's workers start executors from ($SPARK_HOME, set by the
   * build): {@code jars/} with the test class path (folders packed as jars), and the discovery
   * script, which gives each worker the next free address.
   */
  private static Path sparkHome() throws IOException {
    Path home = Path.of(System.getenv("SPARK_HOME"));
    Path jars = home.resolve("jars");
    deleteTree(home);
    Files.createDirectories(jars);
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    int folder = 0;
    for (String entry : classPath.split(File.pathSeparator)) {
      Path path = Path.of(entry);
      if (Files.isDirectory(path)) {
        pack(path, jars.resolve("folder-" + folder++ + ".jar"));
      } else if (Files.isRegularFile(path) && entry.endsWith(".jar")) {
        Path link = jars.resolve(path.getFileName());
        if (!Files.exists(link)) {
          Files.createSymbolicLink(link, path.toAbsolutePath());
        }
      }
    }
    Path script = home.resolve("claim-gpu.sh");
    Files.writeString(
        script,
        """
        #!/bin/sh
        # a fake GPU discovery script: each worker claims the next free address, 0, 1, ...
        claims="$(dirname "$0")/claims"
        mkdir -p "$claims"
        n=0
        while ! mkdir "$claims/$n" 2>/dev/null; do n=$((n + 1)); done
        echo "{\\"name\\":\\"gpu\\",\\"addresses\\":[\\"$n\\"]}"
        """);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    return home;
  }

  private static void pack(Path folder, Path jar) throws IOException {
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream zip = new JarOutputStream(out);
        Stream<Path> files = Files.walk(folder)) {
      for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        zip.putNextEntry(
            new ZipEntry(folder.relativize(file).toString().replace(File.separatorChar, '/')));
        Files.copy(file, zip);
        zip.closeEntry();
      }
    }
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(path);
      }
    }
  }
}
