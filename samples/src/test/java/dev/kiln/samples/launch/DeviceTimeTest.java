package dev.kiln.samples.launch;

import dev.kiln.samples.SaxpyKernels;
import dev.kiln.samples.testing.BothDevices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Device;
import dev.kiln.FloatArray;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each launch's device time reaches the caller and JFR. */
class DeviceTimeTest extends BothDevices {
  @Test
  void theLastLaunchsDeviceTimeIsMeasuredWhereAsked() {
    for (Device device : new Device[] {vulkan, cpu}) {
      try (FloatArray x = device.floats(1 << 20); FloatArray y = device.floats(1 << 20)) {
        device.timeLaunches(true);
        SaxpyKernels.saxpy(device, 1 << 20, 2f, x, y);
        long nanos = Device.lastDeviceNanos();
        assertTrue(nanos > 0 && nanos < 10_000_000_000L, device.backend() + ": " + nanos + " ns");
        device.timeLaunches(false);
        SaxpyKernels.saxpy(device, 1 << 20, 2f, x, y);
        if (device == vulkan) {
          assertEquals(-1, Device.lastDeviceNanos(), "no timestamps unless asked for");
        }
      }
    }
  }

  @Test
  void everyLaunchIsAJfrEvent(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("kiln.jfr");
    try (Recording recording = new Recording()) {
      recording.enable("dev.kiln.Dispatch");
      recording.start();
      SaxpyKernels.saxpy(vulkan, 1000, 2f, new float[1000], new float[1000]);
      recording.stop();
      recording.dump(file);
    }
    List<RecordedEvent> events = RecordingFile.readAllEvents(file);
    assertTrue(events.stream().anyMatch(event -> event.getEventType().getName().equals("dev.kiln.Dispatch")
            && event.getString("kernel").endsWith("Saxpy#saxpy")
            && event.getLong("workgroups") == 4
            && event.getLong("deviceNanos") > 0),
        events.toString());
  }
}
