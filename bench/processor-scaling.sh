#!/usr/bin/env bash
# The processor's time against javac's on large kernels, by ratio in one run (after ./mvnw install):
# a kernel storing a sum of N terms (y[i] = i + 1 + ... + 1) for each N given, and one of M
# statements y[i] += k. Each is compiled by javac alone (-proc:none) and with Kiln, in fresh javac
# processes, RUNS times (default 3); the medians are printed.
#   bash bench/processor-scaling.sh [N...]          (default 250 500 1000 2000; STATEMENTS=10000)
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@"); [[ ${#sizes[@]} -gt 0 ]] || sizes=(250 500 1000 2000)
statements=${STATEMENTS:-10000}; runs=${RUNS:-3}
version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -1)
repo=${MAVEN_REPO:-$HOME/.m2/repository}/dev/kiln
javac=$(ls -d /usr/lib/jvm/*/bin/javac | sort -V | tail -1)
processor=$repo/kiln-processor/$version/kiln-processor-$version.jar:$(cd processor && ../mvnw -q -o \
  dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile=/dev/stdout)
classpath=$repo/kiln-annotations/$version/kiln-annotations-$version.jar:$repo/kiln-runtime/$version/kiln-runtime-$version.jar
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() { tr ' ' '\n' | grep . | sort -n | sed -n "$(( (runs + 1) / 2 ))p"; }
seconds() { local start end; start=$(date +%s%N); "$@" > "$work/out.txt" 2>&1 || true; end=$(date +%s%N); echo "$(( (end - start) / 1000000 ))"; }
measure() { # $1 file, $2 what
  local alone="" kiln=""
  for ((run = 0; run < runs; run++)); do
    rm -rf "$work/classes" && mkdir "$work/classes"
    alone+="$(seconds "$javac" -J-Xss8m -proc:none -cp "$classpath" -d "$work/classes" "$1") "
    rm -rf "$work/classes" && mkdir "$work/classes"
    kiln+="$(seconds "$javac" -J-Xss8m -cp "$classpath" -processorpath "$processor" -d "$work/classes" "$1") "
  done
  local a k
  a=$(median <<<"$alone"); k=$(median <<<"$kiln")
  echo "$2: javac $a ms, javac with Kiln $k ms, ratio $(awk "BEGIN {printf \"%.2f\", $k / $a}");" \
    "Kiln said: $(grep -o '\[kiln\.[a-zA-Z.]*\]' "$work/out.txt" | sort -u | tr '\n' ' ')"
}
for n in "${sizes[@]}"; do
  mkdir -p "$work/q"
  python3 -c "import sys; n = int(sys.argv[1]); print('package q; import dev.kiln.Gpu; import dev.kiln.annotations.Kernel;'
    f' class Sum{n} {{ @Kernel static void k(int[] y) {{ int i = Gpu.globalId(0);'
    f' if (i < y.length) {{ y[i] = i' + ' + 1' * n + '; } } }')" "$n" > "$work/q/Sum$n.java"
  measure "$work/q/Sum$n.java" "sum of $n terms"
done
python3 -c "import sys; m = int(sys.argv[1]); print('package q; import dev.kiln.Gpu; import dev.kiln.annotations.Kernel;'
  ' class Many { @Kernel static void k(int[] y, int k) { int i = Gpu.globalId(0); if (i < y.length) {'
  + ' y[i] += k;' * m + ' } } }')" "$statements" > "$work/q/Many.java"
measure "$work/q/Many.java" "$statements statements"
