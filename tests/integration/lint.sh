# The house style is checked, not hoped for: clang-format (the repo's .clang-format) and cppcheck must be clean
# over every C file of src/ and tests/.
. "$(dirname "$0")/../lib.sh"
cd "$KF_TOP" || exit 1
files=$(git ls-files 'src/*.c' 'src/*.h' 'src/**/*.c' 'src/**/*.h' 'tests/unit/*.c' 'tests/unit/*.h' 'tests/workloads/*.c' \
	'tests/fuzz/*.c' ':(exclude)tests/fuzz/*-seeds/*' 2>/dev/null) # seeds are the kernel's own text
if [ -z "$files" ]; then
	skip "clang-format" "not a git checkout: no file list"
	skip "cppcheck" "not a git checkout: no file list"
	exit 0
fi
if command -v clang-format >/dev/null; then
	# shellcheck disable=SC2086
	check "clang-format: every C file is formatted" clang-format --dry-run --Werror $files
else
	skip "clang-format" "clang-format is not installed"
fi
if command -v cppcheck >/dev/null; then
	out=$(make -s --no-print-directory cppcheck 2>&1)
	if [ -z "$out" ]; then ok "cppcheck: no finding in src/"; else not_ok "cppcheck: findings"; printf '%s\n' "$out" | head -20 | sed 's/^/#   /'; fi
else
	skip "cppcheck" "cppcheck is not installed"
fi
