#!/bin/sh
# `make run`: the main job on the seed guide's own workload, the stress-ng netdev stressor (ioctls on every network
# device for 2 seconds). Prints the footprint tables and the process tree, saves build/run.json for
# `kfootprint report` / `kfootprint map`.
set -eu
kf=${1:-build/kfootprint}
out=${2:-build/run.json}
"$kf" record -o "$out" -- stress-ng --netdev 1 -t 2 --metrics
echo
echo "saved the footprint to $out; try: $kf report -F tree $out; $kf map $out"
