#!/bin/sh
# The outcome of a real tinyconfig build of linux-source-6.1, built once and cached (used by `make accuracy`):
#   sh bench/tinyconfig_build.sh         prints the cache directory, building it first when missing
# The cache, /var/cache/kfootprint/tinyconfig-VERSION/ (KF_ACC_CACHE overrides /var/cache/kfootprint), is keyed by
# the tree's version and holds: config (the .config `make tinyconfig` wrote), sources.txt (the source file of every
# object the build compiled, from its .<obj>.cmd files: "source_<obj> := <file>", tree-relative, sorted) and
# build.log. The tree copy and its objects are removed afterwards: what the comparison needs is the list.
# A build takes about 3-5 minutes on 2 CPUs (make -j2 vmlinux, nice'd); later runs reuse the cache.
set -u
tarball=/usr/src/linux-source-6.1.tar.xz
[ -r "$tarball" ] || { echo "tinyconfig: $tarball is missing (apt-get install linux-source-6.1)" >&2; exit 1; }
version=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null)
[ -n "$version" ] || version=unknown
base=${KF_ACC_CACHE:-/var/cache/kfootprint}
cache=$base/tinyconfig-$version
mkdir -p "$base" || exit 1
# one build at a time: a second run waits for the first and then finds its cache
exec 9>"$base/tinyconfig.lock"
flock 9
if [ -f "$cache/.kf-complete" ]; then
	echo "$cache"
	exit 0
fi
work=$cache.tmp
rm -rf "$work" && mkdir -p "$work" || exit 1
echo "tinyconfig: extracting $tarball into $work" >&2
tar -xJf "$tarball" -C "$work" || { echo "tinyconfig: cannot extract $tarball" >&2; exit 1; }
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'linux-source-*' | head -n 1)
t0=$(date +%s)
echo "tinyconfig: make tinyconfig && make -j2 vmlinux in $src (a few minutes)" >&2
if ! (cd "$src" && make -s ARCH=x86 tinyconfig && nice -n 10 make -s -j2 ARCH=x86 vmlinux) >"$work/build.log" 2>&1; then
	tail -n 20 "$work/build.log" >&2
	echo "tinyconfig: the build failed (log: $work/build.log)" >&2
	exit 1
fi
t1=$(date +%s)
cp "$src/.config" "$work/config"
# every compiled object names its source in its .cmd file; the host tools (scripts/, tools/) are not the kernel's
find "$src" -name '.*.o.cmd' -not -path "$src/scripts/*" -not -path "$src/tools/*" -print0 |
	xargs -0 sed -n 's/^source_[^ ]* := //p' | sed "s|^$src/||; s|^\./||" | sort -u >"$work/sources.txt"
echo "built in $((t1 - t0)) s" >>"$work/build.log"
rm -rf "$src"
rm -rf "$cache" && mv "$work" "$cache" && touch "$cache/.kf-complete"
echo "$cache"
