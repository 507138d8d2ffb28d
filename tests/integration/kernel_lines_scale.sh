#!/bin/sh
# Kernel lines at the size of a whole gcov guest: every map of them grows at most linearly (x8 allowed for x4 the
# input) in the functions of one file, each with an #ifdef block and an error path not taken
# (kernel_lines_scale.py). Sizes: KF_SCALE_N functions (default 1500) and 4 times that.
. "$(dirname "$0")/../lib.sh"

if ! command -v gcc >/dev/null 2>&1; then
	skip kernel_lines_scale "no gcc to build the fixture"
	exit 0
fi
$PY "$KF_TOP/tests/integration/kernel_lines_scale.py" "$KF" "$T" "${KF_SCALE_N:-1500}" \
	-- map --vmlinux '{wl}' --source-root '{src}' -F lcov -o '{out}' '{fp}' \
	-- map --vmlinux '{wl}' --source-root '{src}' '{fp}' \
	-- map --vmlinux '{wl}' --source-root '{src}' -F json -o '{out}' '{fp}' ||
	not_ok "kernel lines at scale: the fixtures are made and run"
