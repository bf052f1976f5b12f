#!/usr/bin/env bash
# The README's own project, built and run: every code block of README.md preceded by a line
# `<!-- readme-project: <path> -->` is written to <path> in a new folder, which Maven then builds
# (`compile exec:exec`, the command the README gives) against the Kiln artifacts in the local
# repository; its Main must print saxpy's result. So what a user pastes cannot rot.
#   bash examples/readme-project.sh <README.md> <work folder> <mvn> [offline=true|false]
set -euo pipefail
readme=${1:?README.md}; work=${2:?work folder}; mvn=${3:?mvn}; offline=${4:-offline=false}
rm -rf "$work" && mkdir -p "$work"
files=0
path=""
in_block=false
while IFS= read -r line; do
  if [[ $in_block == true ]]; then
    if [[ $line == '```' ]]; then in_block=false; path=""; files=$((files + 1)); continue; fi
    printf '%s\n' "$line" >> "$work/$path"
  elif [[ $line =~ ^\<!--\ readme-project:\ (.+)\ --\>$ ]]; then
    path=${BASH_REMATCH[1]}
    mkdir -p "$(dirname "$work/$path")"
    : > "$work/$path"
  elif [[ -n $path && $line == '```'* ]]; then
    in_block=true
  fi
done < "$readme"
[[ $files -eq 3 ]] || { echo "readme-project: expected 3 files in $readme, found $files" >&2; exit 1; }
flags=(-B -q -f "$work/pom.xml")
[[ $offline == offline=true ]] && flags+=(-o)
out=$("$mvn" "${flags[@]}" compile exec:exec 2>&1) || { echo "$out" >&2; echo "readme-project: the README's project does not build or run" >&2; exit 1; }
if ! grep -q ': y\[7\] = 36.0$' <<< "$out"; then
  echo "$out" >&2
  echo "readme-project: Main did not print y[7] = 36.0" >&2
  exit 1
fi
if grep -q 'WARNING: A restricted method' <<< "$out"; then
  echo "$out" >&2
  echo "readme-project: the README's JVM flags do not cover LWJGL's native access" >&2
  exit 1
fi
echo "readme-project.sh: the README's pom.xml, Saxpy and Main build and run: $(grep ': y\[7\]' <<< "$out")"
