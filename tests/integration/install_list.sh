# The Makefile's one install list must name every Debian package the build, tests and benchmarks use: a green run
# on this machine could otherwise hide a package installed by hand. For each program and library we call, the
# package that owns it (dpkg -S) must be in `make install-list`.
. "$(dirname "$0")/../lib.sh"
list=" $(make -s -C "$KF_TOP" install-list) "
owner() { # usrmerge: dpkg may know a file under /bin rather than /usr/bin
	dpkg -S "$1" 2>/dev/null | head -n1 | cut -d: -f1 | grep . || dpkg -S "/bin/${1##*/}" 2>/dev/null | head -n1 | cut -d: -f1
}
# Packages the list brings in: the listed ones and two levels of their Depends (clang -> clang-14,
# gcc-multilib -> gcc-12-multilib -> libc6-dev-i386).
deps() { dpkg-query -W -f='${Depends}\n' "$@" 2>/dev/null | tr ',|' '\n\n' | sed 's/([^)]*)//g; s/:any//; s/ //g' | grep . | sort -u; }
level1=$(deps $list)
level2=$(deps $level1)
brought=" $(echo $list $level1 $level2) "
# the archives kfootprint links statically (the Makefile's LDLIBS), and json-c, test_json's oracle
statics=$(for l in json-c bpf dw elf z lzma bz2; do readlink -f "$(gcc -print-file-name="lib$l.a")"; done)
for f in $statics /usr/bin/strace /usr/bin/stress-ng /usr/bin/cscope /usr/sbin/bpftool /usr/bin/clang-14 \
	/usr/include/json-c/json.h /usr/include/cmocka.h /usr/include/bpf/libbpf.h /usr/include/zlib.h \
	/usr/include/gelf.h /usr/include/elfutils/libdw.h /usr/bin/cloc /usr/lib32/libc.a /usr/src/linux-source-6.1.tar.xz /usr/src/linux-config-6.1/config.amd64_none_amd64.xz /usr/bin/curl /usr/bin/xz /usr/bin/pkg-config \
	/usr/bin/find /usr/bin/tar /usr/bin/setpriv /usr/bin/unshare /usr/bin/setsid /usr/bin/ps /usr/bin/pgrep /usr/lib/python3/dist-packages/docutils/__init__.py \
	/usr/bin/qemu-system-x86_64 /usr/bin/trace-cmd /bin/busybox /usr/bin/flock /usr/bin/timeout /sbin/depmod /lib/systemd/systemd /sbin/mke2fs \
	/usr/bin/ss /usr/bin/ip /usr/bin/flex /usr/bin/bison /usr/bin/cpio /usr/bin/bc /usr/bin/curl; do
	if [ ! -e "$f" ]; then
		not_ok "install-list: $f is missing: make deps did not install it"
		continue
	fi
	pkg=$(owner "$f")
	pkg=${pkg%%:*}
	case "$brought" in
	*" $pkg "*) ok "install-list brings $pkg (for $f)" ;;
	*) not_ok "install-list lacks $pkg, which provides $f" ;;
	esac
done
# perf is a wrapper in linux-perf (Debian's linux-base ships /usr/bin/perf as a version dispatcher).
perf_pkg=$(owner "$(readlink -f "$(command -v perf)")")
case "$list" in *" linux-perf "*) ok "install-list names linux-perf (perf is $perf_pkg)" ;; *) not_ok "install-list lacks linux-perf" ;; esac
# Every listed package must exist in apt's view (a typo would make `make deps` fail on a fresh machine).
for p in $list; do
	if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || apt-cache show "$p" >/dev/null 2>&1; then :; else
		not_ok "install-list: no Debian package named $p"
	fi
done
ok "install-list: every package is known to dpkg or apt"
