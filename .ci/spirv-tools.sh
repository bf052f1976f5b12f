#!/usr/bin/env bash
# SPIR-V tools that know SPV_KHR_cooperative_matrix, which bookworm's spirv-tools (2023.1) rejects:
# Debian trixie's spirv-tools with the C and C++ runtimes it was built against, unpacked under
# /opt/kiln-spirv-tools (the system's own libraries stay as they are) and run through their own
# loader by wrappers in /usr/local/bin, ahead of /usr/bin on PATH. The download uses a private apt
# configuration: the machine's sources and package lists are not touched.
set -euo pipefail
root=/opt/kiln-spirv-tools
if [[ ! -x $root/usr/bin/spirv-val ]]; then
  work=$(mktemp -d)
  mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/debs"
  echo "deb http://deb.debian.org/debian trixie main" > "$work/sources.list"
  apt=(-o Dir::Etc::SourceList="$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o Dir::State::Lists="$work/lists" -o Dir::Cache="$work/cache" -o APT::Sandbox::User=root)
  apt-get "${apt[@]}" update -qq
  (cd "$work/debs" && apt-get "${apt[@]}" download -qq spirv-tools libc6 libstdc++6 libgcc-s1)
  mkdir -p "$root"
  for deb in "$work"/debs/*.deb; do dpkg -x "$deb" "$root"; done
  rm -rf "$work"
fi
for tool in spirv-val spirv-dis spirv-as; do
  cat > "/usr/local/bin/$tool" <<WRAPPER
#!/bin/sh
exec $root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 --library-path $root/usr/lib/x86_64-linux-gnu $root/usr/bin/$tool "\$@"
WRAPPER
  chmod +x "/usr/local/bin/$tool"
done
spirv-val --version | head -1
