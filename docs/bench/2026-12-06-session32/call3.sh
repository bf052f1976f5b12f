#!/bin/bash
# Session 32, call 3: call 2 again, on the pack of the head with four-million-element copy chunks.
bash "$(dirname "$0")/call2.sh"
