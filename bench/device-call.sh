# Sourced at the top of a device call's script (carry: [".gpu-check"]), from the repository root:
#   source bench/device-call.sh
# Sets O (the call's $OUT, made), R (where .gpu-check/pack.tar.xz is unpacked, once a machine), J (the
# java command: KILN_HEAP, 40g by default; a crash's report into $O), HEAD (.gpu-check/head's jars
# before the pack's, for a baseline's variant jars) and the pack's environment, and writes the GPU's
# name, driver, clock and memory to $O/gpu.txt.
O=$OUT
mkdir -p "$O"
R=/tmp/kiln-perf
[ -d $R/.gpu ] || { mkdir -p $R && tar -C $R -xJf .gpu-check/pack.tar.xz; }
# shellcheck disable=SC1091
source $R/.gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv | tee "$O/gpu.txt"
J="java -Xmx${KILN_HEAP:-40g} --enable-native-access=ALL-UNNAMED -Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM -XX:ErrorFile=$O/hs_err_%p.log"
HEAD="$PWD/.gpu-check/head/*:$R/.gpu/lib/*"
