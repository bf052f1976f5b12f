package dev.kiln.vulkan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The device listing records the driver's device groups: every device is in one. */
class DeviceGroupsTest {
  @Test
  void everyListedDeviceIsInOneGroup() {
    List<String> devices;
    List<String> groups;
    try {
      devices = VulkanBackend.describeDevices();
      groups = VulkanBackend.describeDeviceGroups();
    } catch (VulkanUnavailableException e) {
      throw TestBackends.skip("no Vulkan loader: " + e.getMessage());
    }
    int grouped = 0;
    for (String group : groups) {
      assertTrue(group.matches("group \\d+: \\d+ devices? \\(.+\\).*"), group);
      grouped += Integer.parseInt(group.replaceAll("group \\d+: (\\d+) .*", "$1"));
    }
    assertEquals(devices.size(), grouped, "devices " + devices.size() + ", in groups " + groups);
    String grouping = String.join("\n", groups);
    for (String device : devices) {
      String name =
          device.substring(
              0,
              device.lastIndexOf(": ", device.indexOf(", Vulkan "))); // "<name>: <kind>, Vulkan …"
      assertTrue(
          grouping.contains("(" + name) || grouping.contains(", " + name), name + " in " + groups);
    }
  }
}
