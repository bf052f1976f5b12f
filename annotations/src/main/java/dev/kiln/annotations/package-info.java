/**
 * What a user writes on kernel methods: {@link dev.kiln.annotations.Kernel} marks a kernel, {@link
 * dev.kiln.annotations.Buffer} declares a buffer parameter's {@link dev.kiln.annotations.Access},
 * and {@link dev.kiln.annotations.FuseGroup} makes kernels of one class arms of one fused dispatch.
 */
package dev.kiln.annotations;
