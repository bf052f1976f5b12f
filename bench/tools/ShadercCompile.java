import static org.lwjgl.util.shaderc.Shaderc.*;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.lwjgl.system.MemoryUtil;

/**
 * Compiles one GLSL compute shader to SPIR-V with LWJGL's shaderc, for the twins that need a
 * newer glslang than Debian 12's glslc (cooperative matrices). Run by bench/glsl.sh as a
 * single-file program: {@code java -cp <lwjgl and lwjgl-shaderc jars> ShadercCompile.java in out [NAME=VALUE ...]},
 * the optional arguments defined as macros (one source, several variants).
 */
public final class ShadercCompile {
  private ShadercCompile() {}

  public static void main(String[] args) throws Exception {
    String source = Files.readString(Path.of(args[0]));
    long compiler = shaderc_compiler_initialize();
    long options = shaderc_compile_options_initialize();
    shaderc_compile_options_set_target_env(options, shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_3);
    // glslang takes VK_NV_cooperative_matrix2's GLSL only for SPIR-V 1.6
    shaderc_compile_options_set_target_spirv(options, source.contains("GL_NV_cooperative_matrix2")
        ? shaderc_spirv_version_1_6 : shaderc_spirv_version_1_3);
    shaderc_compile_options_set_optimization_level(options, shaderc_optimization_level_performance);
    for (int i = 2; i < args.length; i++) {
      String[] definition = args[i].split("=", 2);
      shaderc_compile_options_add_macro_definition(options, definition[0], definition.length > 1 ? definition[1] : "1");
    }
    long result = shaderc_compile_into_spv(compiler, source, shaderc_compute_shader, args[0], "main", options);
    try {
      if (shaderc_result_get_compilation_status(result) != shaderc_compilation_status_success) {
        System.err.println(shaderc_result_get_error_message(result));
        System.exit(1);
      }
      ByteBuffer bytes = shaderc_result_get_bytes(result);
      byte[] module = new byte[bytes.remaining()];
      bytes.get(module);
      Files.write(Path.of(args[1]), module);
    } finally {
      shaderc_result_release(result);
      shaderc_compile_options_release(options);
      shaderc_compiler_release(compiler);
    }
  }
}
