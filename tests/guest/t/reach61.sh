#!/bin/sh
# What each call reached, on Debian's 6.1 kernel: no pidfd of a thread there, so no per-task cache either (each
# refinement goes straight into the `reach` hash, src/bpf/kfreach.bpf.h). tests/integration/reach_cache.sh's
# workload and exact counts, as on the host, for threads ending apart (the same as ptrace); -d's and -p's cases test
# the per-task cache's hand-over, which 6.1 has not (they run on the host).
export KF_REACH_HASH_ONLY=1
exec sh "$(dirname "$0")/../../integration/reach_cache.sh"
