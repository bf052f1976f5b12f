#!/usr/bin/env bash
# A new user's first minute: the README's first command (the sample) on a fresh copy of this
# checkout with an empty local Maven repository and no Maven of the wrapper's yet, timed, and what it
# downloaded, measured. Fails where the command fails, prints no result line per kernel, downloads
# more than FIRST_RUN_MB (120) or takes longer than FIRST_RUN_S (75 s; set 0 not to hold the time).
#   bash .ci/first-run.sh
set -euo pipefail
cd "$(dirname "$0")/.."
limit_mb=${FIRST_RUN_MB:-120}
limit_s=${FIRST_RUN_S:-75}
command=$(sed -n '/^```sh$/{n;p;q}' README.md | sed 's/ *#.*//')
[[ $command == ./mvnw* ]] || { echo "the README's first command is not a ./mvnw command: $command" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git ls-files -z | xargs -0 cp --parents -t "$work" # the checkout's files, no build outputs
cd "$work"
export MAVEN_USER_HOME=$work/m2 # the wrapper's Maven and the local repository, both empty
echo "first run: $command (empty local repository)"
start=$(date +%s%N)
# shellcheck disable=SC2086
${command} -Dmaven.repo.local="$MAVEN_USER_HOME/repository" 2>&1 | tee output.txt
seconds=$(( ($(date +%s%N) - start + 500000000) / 1000000000 ))
mb=$(( $(du -sk "$MAVEN_USER_HOME" | cut -f1) / 1024 ))
results=$(grep -c 'results equal plain Java bit for bit' output.txt || true)
printf 'first run: %d s, %d MB downloaded (the wrapper'"'"'s Maven and the local repository), %d kernels right\n' \
  "$seconds" "$mb" "$results"
[[ $results -ge 6 ]] || { echo "the sample printed $results results, not 6" >&2; exit 1; }
[[ $mb -le $limit_mb ]] || { echo "the first run downloaded $mb MB, over $limit_mb MB" >&2; exit 1; }
if [[ $limit_s -gt 0 && $seconds -gt $limit_s ]]; then
  echo "the first run took $seconds s, over $limit_s s" >&2
  exit 1
fi
