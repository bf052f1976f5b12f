/**
 * The entry points generated launchers call ({@link dev.kiln.internal.Dispatch}): each turns a
 * count or grids into a launch and hands it to the device. For generated code only: no
 * compatibility promise, do not call it.
 */
package dev.kiln.internal;
