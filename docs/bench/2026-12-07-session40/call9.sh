#!/bin/bash
# Session 40, call 9 (carry: [".gpu-check"]): the last of the session's device time for issue 50's
# H200 table: call7.sh on an H200 (about 300 s there on an H100); on an H100 it stops at once, call 7
# having run the same there.
source bench/device-call.sh
grep -q H200 $O/gpu.txt || exit 0
exec bash docs/bench/2026-12-07-session40/call7.sh
