/**
 * The one door between {@code dev.kiln.Device} and {@code dev.kiln.internal}: the device installs
 * its launch entry points here when its class initializes, so that they need not be public API (the
 * JDK's SharedSecrets pattern).
 */
package dev.kiln.access;
