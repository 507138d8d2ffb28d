#!/bin/sh
# What each call reached, on Debian's 6.1 kernel: no pidfd of a thread there, so no per-task cache either (each
# refinement goes straight into the `reach` hash, src/bpf/kfreach.bpf.h). tests/integration/reach_cache.sh's
# workload and exact counts, as on the host: threads ending apart (the same as ptrace), alive at -d's end, and -p.
exec sh "$(dirname "$0")/../../integration/reach_cache.sh"
