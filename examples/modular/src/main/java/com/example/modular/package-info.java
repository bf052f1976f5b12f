/** The quickstart as a named module that requires {@code dev.kiln.runtime} and nothing else. */
package com.example.modular;
