# Sourced by tests/integration/*.sh. Each check prints one TAP line; the runner counts them.
#   ok NAME | not ok NAME | ok NAME # SKIP why
set -u
: "${KF_BUILD:=build}"
: "${KF_TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
KF="$KF_TOP/$KF_BUILD/kfootprint"
KF_ASAN_BIN="${KF_ASAN:+$KF_TOP/$KF_ASAN/kfootprint}"
WL="$KF_TOP/$KF_BUILD/workloads"
T=$(mktemp -d /tmp/kf-it.XXXXXX)
trap 'rm -rf "$T"' EXIT

ok() { echo "ok $*"; }
not_ok() { echo "not ok $*"; }
skip() { echo "ok $1 # SKIP $2"; }
# check NAME COMMAND...: ok when the command succeeds; its output is shown on failure.
check() {
	name=$1; shift
	if out=$("$@" 2>&1); then ok "$name"; else not_ok "$name"; printf '%s\n' "$out" | tail -n 20 | sed 's/^/#   /'; fi
}
# eq NAME EXPECTED ACTUAL
eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1: expected '$2', got '$3'"; fi
}
# kf_names REGISTRY: the names a registry of kfootprint lists in its "expected one of ..." message, space-separated:
# formats (report -F), map_formats (map -F), backends (record -b). Tests take their lists from here, never by hand.
kf_names() {
	case $1 in
	formats) "$KF" report -F '?' /dev/null ;;
	map_formats) "$KF" map -F '?' --syscalls read ;;
	backends) "$KF" record -b '?' -- true ;;
	esac 2>&1 | sed -n 's/.*expected one of //p' | tr -d ','
}
# jq-free JSON queries through python3 (installed by make deps): jget FILE EXPR, EXPR over `d`.
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
