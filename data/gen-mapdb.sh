#!/bin/sh
# Regenerates the built-in map databases data/mapdb-6.1-x86_64.json, data/mapdb-6.1-i386.json and
# data/kfuncdb-6.1-x86_64.tsv.gz (and data/sloc-6.1.tsv.gz) with kfootprint itself (`make mapdb`, or: sh data/gen-mapdb.sh build/kfootprint [TREE]).
#
# TREE is a Linux 6.1 source tree; by default the one of Debian's linux-source-6.1 package, extracted from
# /usr/src/linux-source-6.1.tar.xz into a temporary directory. The chains are evaluated with Debian's own
# configuration for that tree (linux-config-6.1, config.amd64_none_amd64.xz), so alternatives such as
# mm/mmap.c vs mm/nommu.c are chosen as Debian's 6.1 kernel builds them.
set -eu
kf=$1
tree=${2:-}
out=$(dirname "$0")
tarball=/usr/src/linux-source-6.1.tar.xz
debconfig=/usr/src/linux-config-6.1/config.amd64_none_amd64.xz
tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/kf-mapdb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if [ -z "$tree" ]; then
	[ -f "$tarball" ] || { echo "gen-mapdb: $tarball missing: apt-get install linux-source-6.1" >&2; exit 1; }
	tar -xJf "$tarball" -C "$tmp"
	tree=$tmp/linux-source-6.1
fi
set --
if [ -f "$debconfig" ]; then
	# The file name says which configuration it is; the database records it in its header.
	xz -dc "$debconfig" >"$tmp/config.amd64_none_amd64"
	set -- --kernel-config "$tmp/config.amd64_none_amd64"
fi
for abi in x86_64 i386; do
	"$kf" map --kernel-src "$tree" --no-cache --abi "$abi" "$@" --save-db "$out/mapdb-6.1-$abi.json.tmp"
	# The configuration is named by its Debian file, not by the temporary path it was read from.
	sed "1s|\"config\":\"$tmp/|\"config\":\"linux-config-6.1 |" "$out/mapdb-6.1-$abi.json.tmp" >"$out/mapdb-6.1-$abi.json"
	rm -f "$out/mapdb-6.1-$abi.json.tmp"
	counts=$(awk '/^"reach": \[/ { r = 1 } /^"options": \[/ { r = 2 } /"complete":/ { n[r + 0]++ } END { printf "%d syscalls, %d reach targets", n[0], n[1] }' "$out/mapdb-6.1-$abi.json")
	echo "gen-mapdb: $out/mapdb-6.1-$abi.json: $counts"
done
# The database of kernel functions (function -> file:line, file -> object, options, MAINTAINERS section), x86_64,
# gzip'd without a name or time so that the same tree gives the same bytes.
"$kf" map --kernel-src "$tree" --no-cache --abi x86_64 "$@" --save-kfuncdb "$out/kfuncdb-6.1-x86_64.tsv.tmp"
gzip -9n <"$out/kfuncdb-6.1-x86_64.tsv.tmp" >"$out/kfuncdb-6.1-x86_64.tsv.gz"
echo "gen-mapdb: $out/kfuncdb-6.1-x86_64.tsv.gz: $(grep -c '^D' "$out/kfuncdb-6.1-x86_64.tsv.tmp") definitions," \
	"$(grep -c '^F' "$out/kfuncdb-6.1-x86_64.tsv.tmp") files, $(wc -c <"$out/kfuncdb-6.1-x86_64.tsv.gz") bytes"
rm -f "$out/kfuncdb-6.1-x86_64.tsv.tmp"
# The SLOC of every file Debian's configuration compiles, for `inventory --running` without a tree: kfootprint's
# own count (src/inventory/sloc.c), path and SLOC by path, gzip'd as above.
if [ -f "$debconfig" ]; then
	{
		printf 'kfootprint-sloc/1\t%s\tlinux-source-6.1 with linux-config-6.1 config.amd64_none_amd64\n' \
			"$(zcat "$out/kfuncdb-6.1-x86_64.tsv.gz" | head -n 1 | cut -f 2)"
		"$kf" inventory --kernel-src "$tree" --config "$debconfig" --no-cache -F csv |
			awk -F, 'NR > 1 && $1 == "file" && $4 != "" { print $2 "\t" $4 }'
	} | gzip -9n >"$out/sloc-6.1.tsv.gz"
	echo "gen-mapdb: $out/sloc-6.1.tsv.gz: $(zcat "$out/sloc-6.1.tsv.gz" | tail -n +2 | wc -l) files, $(wc -c <"$out/sloc-6.1.tsv.gz") bytes"
fi
