#!/usr/bin/env bash
# SPIR-V tools newer than bookworm's (2023.1), unpacked with the C and C++ runtimes they were built
# against under /opt (the system's own libraries stay as they are) and run through their own loader
# by wrappers in /usr/local/bin, ahead of /usr/bin on PATH:
# - spirv-dis and spirv-as from Debian trixie (2025.1), which knows SPV_KHR_cooperative_matrix. A
#   stable release, so that the golden disassemblies stay as they are;
# - spirv-val from Debian sid (2026.4 on 2026-12-02), which also knows SPV_KHR_bfloat16 (trixie's
#   rejects it). sid moves: a newer validator is the one tool here that may change under CI.
# The downloads use a private apt configuration: the machine's sources and package lists are not touched.
set -euo pipefail

# unpack SUITE ROOT: spirv-tools of Debian SUITE and its runtimes under ROOT, unless there already
unpack() {
  local suite=$1 root=$2
  if [[ -x $root/usr/bin/spirv-val && "$(cat "$root/suite" 2>/dev/null)" == "$suite" ]]; then
    return
  fi
  rm -rf "$root"
  local work
  work=$(mktemp -d)
  mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/debs"
  echo "deb http://deb.debian.org/debian $suite main" > "$work/sources.list"
  local apt=(-o Dir::Etc::SourceList="$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o Dir::State::Lists="$work/lists" -o Dir::Cache="$work/cache" -o APT::Sandbox::User=root)
  apt-get "${apt[@]}" update -qq
  (cd "$work/debs" && apt-get "${apt[@]}" download -qq spirv-tools libc6 libstdc++6 libgcc-s1)
  mkdir -p "$root"
  for deb in "$work"/debs/*.deb; do dpkg -x "$deb" "$root"; done
  echo "$suite" > "$root/suite"
  rm -rf "$work"
}

# wrap TOOL ROOT: /usr/local/bin/TOOL runs ROOT's TOOL
wrap() {
  local tool=$1 root=$2
  cat > "/usr/local/bin/$tool" <<WRAPPER
#!/bin/sh
exec $root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 --library-path $root/usr/lib/x86_64-linux-gnu $root/usr/bin/$tool "\$@"
WRAPPER
  chmod +x "/usr/local/bin/$tool"
}

unpack trixie /opt/kiln-spirv-tools
unpack sid /opt/kiln-spirv-tools-sid
wrap spirv-dis /opt/kiln-spirv-tools
wrap spirv-as /opt/kiln-spirv-tools
wrap spirv-val /opt/kiln-spirv-tools-sid
echo "spirv-val: $(spirv-val --version | head -1); spirv-dis: $(spirv-dis --version | head -1)"
