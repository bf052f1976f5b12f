/** A project of a user's that uses Kiln: a fuse group of kernels, and tests that launch it. */
package com.example;
