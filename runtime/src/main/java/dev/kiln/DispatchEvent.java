package dev.kiln;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/** A JFR event per kernel launch: which kernel, how many workgroups, and its time on the device. */
@Name("dev.kiln.Dispatch")
@Label("Kiln Dispatch")
@Category("Kiln")
@Description("A kernel launch and the time it took on the device")
final class DispatchEvent extends Event {
  @Label("Kernel")
  String kernel;

  @Label("Device")
  String device;

  @Label("Workgroups")
  long workgroups;

  @Label("Device Time")
  @Timespan(Timespan.NANOSECONDS)
  long deviceNanos;
}
