#!/usr/bin/env bash
# The README's own project, built and run: every code block of README.md preceded by a line
# `<!-- readme-project: <path> -->` is written to <path> in a new folder, which Maven then builds
# (`compile exec:exec`, the command the README gives) against the Kiln artifacts in the local
# repository; its Main must print saxpy's result. The block after `<!-- readme-javac -->` is then
# run as it stands, with its `M=` pointing at the local repository, and must write the launcher;
# and the sources compiled with the processor on the class path only must fail as the README says.
# So what a user pastes cannot rot.
#   bash examples/readme-project.sh <README.md> <work folder> <mvn> <local repository> [offline=true|false]
set -euo pipefail
readme=${1:?README.md}; work=${2:?work folder}; mvn=${3:?mvn}; repo=${4:?local repository}
offline=${5:-offline=false}
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
  elif [[ $line == '<!-- readme-javac -->' ]]; then
    path=javac.sh
    : > "$work/$path"
  elif [[ -n $path && $line == '```'* ]]; then
    in_block=true
  fi
done < "$readme"
[[ $files -eq 4 ]] || { echo "readme-project: expected 4 blocks in $readme, found $files" >&2; exit 1; }
fail() { echo "$1" >&2; echo "readme-project: $2" >&2; exit 1; }
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

# The plain javac command, as written but for where the local repository is, with Maven's JDK.
javac_bin=$(dirname "$(command -v java)")/javac
[[ -n ${JAVA_HOME:-} ]] && javac_bin=$JAVA_HOME/bin/javac
sed -i "s|^M=.*|M='$repo'|; s|^javac |'$javac_bin' |" "$work/javac.sh"
out=$(cd "$work" && bash javac.sh 2>&1) || fail "$out" "the README's javac command fails"
[[ -f $work/out/com/example/SaxpyKernels.class && -f $work/out/com/example/Saxpy.saxpy.spv ]] \
  || fail "$out" "the README's javac command wrote no launcher or no SPIR-V"

# The processor only on the class path: javac 23+ runs no processor and stops where the README says.
major=$("$javac_bin" -version 2>&1 | sed -E 's/javac ([0-9]+).*/\1/')
if [[ $major -ge 23 ]]; then
  processor_path=$(sed -nE 's/^ *-processorpath ([^ ]+).*/\1/p' "$work/javac.sh")
  class_path=$(sed -nE 's/^ *-cp ([^ ]+).*/\1/p' "$work/javac.sh")
  both=${processor_path//\$M/$repo}:${class_path//\$M/$repo}
  if out=$("$javac_bin" --release 21 -d "$work/out-missing" -cp "$both" "$work"/src/main/java/com/example/*.java 2>&1); then
    fail "$out" "javac with the processor on the class path only compiled"
  fi
  grep -q 'error: cannot find symbol' <<< "$out" && grep -q 'SaxpyKernels' <<< "$out" \
    || fail "$out" "javac with the processor on the class path only fails otherwise than the README says"
fi
echo "readme-project.sh: the README's pom.xml, Saxpy and Main build and run, its javac command writes the launcher"
