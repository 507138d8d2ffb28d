#!/bin/sh
# The call sites' renderings of a fixed footprint (tests/fixtures/csite/footprint.json: the csite workload of
# tests/workloads/csite/ recorded once with --call-sites on Debian 12, its pids, times and paths normalised) against
# goldens in tests/golden/csite/: the text report, map's call-site section (the built-in database, no running
# kernel) and map -F json's member, the seccomp profile. KF_UPDATE_GOLDEN=1 rewrites them (review the diff).
. "$(dirname "$0")/../lib.sh"

F="$KF_TOP/tests/fixtures/csite/footprint.json"
G="$KF_TOP/tests/golden/csite"
golden() { # NAME: $T/NAME against $G/NAME
	if [ -n "${KF_UPDATE_GOLDEN:-}" ]; then
		mkdir -p "$G" && cp "$T/$1" "$G/$1"
		ok "golden: $1 (updated)"
	elif cmp -s "$G/$1" "$T/$1"; then
		ok "golden: $1"
	else
		not_ok "golden: $1"
		diff -u "$G/$1" "$T/$1" | head -30 | sed 's/^/#   /'
	fi
}
"$KF" report -o "$T/report.txt" "$F"
eq "csite golden: report exits 0" 0 "$?"
golden report.txt
"$KF" map --no-running -o "$T/map.txt" "$F"
eq "csite golden: map exits 0" 0 "$?"
sed -n '/^call sites of /,$p' "$T/map.txt" >"$T/map-csites.txt"
golden map-csites.txt
"$KF" map --no-running -F json -o "$T/map.json" "$F"
jget "$T/map.json" "json.dumps(d['call_sites'], indent=1, sort_keys=True)" >"$T/map-csites.json"
golden map-csites.json
"$KF" seccomp -o "$T/seccomp.json" "$F"
golden seccomp.json
