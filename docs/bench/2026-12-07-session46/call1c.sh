#!/bin/bash
# Session 46, call 1c (carry: [".gpu-check"], call 1's pack): the first half of the GPU check's device tests again
# (bench/h200-check.sh's split of tests.txt), which ran past call 1b's 110 s; 280 s here, failures in full.
source bench/device-call.sh
split -n l/2 $R/tests.txt /tmp/tests-part-
S=(); while read -r t; do S+=(--select-class "$t"); done < /tmp/tests-part-aa
timeout -s QUIT -k 15 280 $J -cp "$R/.gpu/lib/*" org.junit.platform.console.ConsoleLauncher execute --details=summary \
  --disable-banner "${S[@]}" > $O/device-tests-aa.txt 2>&1
grep -E "(tests|containers) (successful|failed|skipped|aborted)|MethodSource|=>" $O/device-tests-aa.txt | head -40
