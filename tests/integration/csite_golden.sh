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
# map -F rst's "Call sites" list-table (valid reStructuredText: docutils reads it without a warning), and map -F
# kconfig's comments under each option naming its needers' call sites (the options' paragraphs that have some).
"$KF" map --no-running -F rst -o "$T/map.rst" "$F"
eq "csite golden: map -F rst exits 0" 0 "$?"
sed -n '/^Call sites$/,$p' "$T/map.rst" >"$T/map-csites.rst"
golden map-csites.rst
if "$PY" -c 'import docutils' 2>/dev/null; then
	eq "csite golden: map -F rst is valid reStructuredText" "" "$("$PY" -c '
import sys, docutils.core
docutils.core.publish_string(open(sys.argv[1]).read(), writer_name="null",
                             settings_overrides={"halt_level": 5, "report_level": 2, "warning_stream": sys.stdout})' "$T/map.rst")"
fi
"$KF" map --no-running -F kconfig -o "$T/map.kconfig" "$F"
eq "csite golden: map -F kconfig exits 0" 0 "$?"
awk -v RS= '/call sites of/ { print; print "" }' "$T/map.kconfig" >"$T/map-csites.kconfig"
golden map-csites.kconfig
eq "csite golden: no call-site comment reads as a value to merge_config.sh" 0 \
	"$(grep '^#   \(call sites of\|  [0-9]\)' "$T/map.kconfig" | grep -c 'CONFIG_')"
