"""The driver's floor for a cold start: a fresh process that loads the Vulkan loader, creates an
instance, picks the first physical device and creates a logical device with one compute queue, with
nothing else in the way (no JVM, no bindings), timed from the process's start. Run it alone or N at
once to compare with Kiln's StartupProbe (bench/cold-start.sh):
    python3 bench/tools/vulkan_floor.py        # prints: floor <ms since start> ms (load, instance, device)
"""
import ctypes
import time

START = time.perf_counter()


class AppInfo(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_int), ("pNext", ctypes.c_void_p), ("pApplicationName", ctypes.c_char_p),
                ("applicationVersion", ctypes.c_uint32), ("pEngineName", ctypes.c_char_p),
                ("engineVersion", ctypes.c_uint32), ("apiVersion", ctypes.c_uint32)]


class InstanceInfo(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_int), ("pNext", ctypes.c_void_p), ("flags", ctypes.c_uint32),
                ("pApplicationInfo", ctypes.POINTER(AppInfo)), ("enabledLayerCount", ctypes.c_uint32),
                ("ppEnabledLayerNames", ctypes.c_void_p), ("enabledExtensionCount", ctypes.c_uint32),
                ("ppEnabledExtensionNames", ctypes.c_void_p)]


class QueueInfo(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_int), ("pNext", ctypes.c_void_p), ("flags", ctypes.c_uint32),
                ("queueFamilyIndex", ctypes.c_uint32), ("queueCount", ctypes.c_uint32),
                ("pQueuePriorities", ctypes.POINTER(ctypes.c_float))]


class DeviceInfo(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_int), ("pNext", ctypes.c_void_p), ("flags", ctypes.c_uint32),
                ("queueCreateInfoCount", ctypes.c_uint32), ("pQueueCreateInfos", ctypes.POINTER(QueueInfo)),
                ("enabledLayerCount", ctypes.c_uint32), ("ppEnabledLayerNames", ctypes.c_void_p),
                ("enabledExtensionCount", ctypes.c_uint32), ("ppEnabledExtensionNames", ctypes.c_void_p),
                ("pEnabledFeatures", ctypes.c_void_p)]


def main():
    vk = ctypes.CDLL("libvulkan.so.1")
    loaded = time.perf_counter()
    app = AppInfo(0, None, b"floor", 0, b"floor", 0, (1 << 22) | (1 << 12))
    info = InstanceInfo(1, None, 0, ctypes.pointer(app), 0, None, 0, None)
    instance = ctypes.c_void_p()
    assert vk.vkCreateInstance(ctypes.byref(info), None, ctypes.byref(instance)) == 0
    made = time.perf_counter()
    count = ctypes.c_uint32(0)
    vk.vkEnumeratePhysicalDevices(instance, ctypes.byref(count), None)
    physical = (ctypes.c_void_p * count.value)()
    vk.vkEnumeratePhysicalDevices(instance, ctypes.byref(count), physical)
    priority = ctypes.c_float(1.0)
    queue = QueueInfo(2, None, 0, 0, 1, ctypes.pointer(priority))
    device_info = DeviceInfo(3, None, 0, 1, ctypes.pointer(queue), 0, None, 0, None, None)
    device = ctypes.c_void_p()
    assert vk.vkCreateDevice(ctypes.c_void_p(physical[0]), ctypes.byref(device_info), None, ctypes.byref(device)) == 0
    done = time.perf_counter()
    ms = lambda a, b: (b - a) * 1e3
    print(f"floor {ms(START, done):.1f} ms (load {ms(START, loaded):.1f}, instance {ms(loaded, made):.1f},"
          f" devices and device {ms(made, done):.1f})")


main()
