#!/bin/sh
# The HTML page on real workloads, read in headless Chromium (issue 23): `python3 -m http.server` started through a
# pyenv-like shim of 40 processes and asked by curl, and a TCP client and server. For `record --map -F html` and
# for `report -F html` of the saved footprint: the options with their labels (needed, only needed off, probed) as
# `map -F json` says and those the closure over Kconfig brought in as `map -F kconfig` says, the MAINTAINERS
# sections with their M:, R: and L: lines as the database has them, what the calls reached, the summary's counts
# as the text summary's, the answer before the charts, the class chart by calls, the waiting calls' time apart
# from work, and a timeline whose lanes hold their labels (html_check.py).
. "$(dirname "$0")/../lib.sh"

CHROMIUM=$(command -v chromium || true)
SHOTS=${KF_SHOTS:-$KF_TOP/$KF_BUILD/shots}
mkdir -p "$SHOTS"
if [ -z "$CHROMIUM" ]; then
	skip "html workloads" "chromium is not installed (make deps installs it)"
	exit 0
fi
if ! command -v curl >/dev/null; then
	skip "html workloads" "curl is not installed (make deps installs it)"
	exit 0
fi

# A shim as pyenv's: python3 hands over to a "pyenv" script, which asks 13 helper scripts (each a program of its
# own, with cat and head under it) before it execs the real python3: 40 processes before the workload's own.
D=$T/shims
mkdir -p "$D"
printf '#!/bin/sh\nexec "%s/pyenv" exec "$@"\n' "$D" >"$D/python3"
{
	printf '#!/bin/sh\nshift\n'
	for h in version-name version-file version-file-read version-origin which hooks prefix root local global \
		shims init sh-shell; do
		printf 'v=$("%s/pyenv-%s")\n' "$D" "$h"
		printf '#!/bin/sh\ncat /dev/null\nhead -c 0 /dev/null\necho 3.11\n' >"$D/pyenv-$h"
		chmod +x "$D/pyenv-$h"
	done
	printf 'exec "%s" "$@"\n' "$PY"
} >"$D/pyenv"
chmod +x "$D/python3" "$D/pyenv"

# http.server, asked by curl until it answers and then five times, then stopped: it waits in poll meanwhile.
mkdir -p "$T/www"
echo hello >"$T/www/index.html"
port=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$KF" record -b ptrace --map -o "$T/http.json" -F html --report "$T/http-rec.html" -- sh -c '
	"$1"/python3 -m http.server "$2" --bind 127.0.0.1 -d "$3" >/dev/null 2>&1 & pid=$!
	i=0
	until curl -sf -o /dev/null "http://127.0.0.1:$2/" || [ $i -gt 300 ]; do sleep 0.1; i=$((i + 1)); done
	for n in 1 2 3 4 5; do curl -sf -o /dev/null "http://127.0.0.1:$2/index.html" || exit 9; done
	kill $pid; wait $pid 2>/dev/null; true' sh "$D" "$port" "$T/www"
eq "html workloads: record --map -F html of http.server and curl exits 0" 0 $?

# A TCP echo server and its client: the server waits in accept while the client sleeps, then echoes.
cat >"$T/tcp.py" <<'PY'
import os, socket, time
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)
if os.fork() == 0:
    time.sleep(0.3)
    c = socket.create_connection(srv.getsockname())
    for i in range(50):
        c.sendall(b"x" * 100)
        c.recv(100)
    c.close()
    os._exit(0)
conn, _ = srv.accept()
while True:
    b = conn.recv(100)
    if not b:
        break
    conn.sendall(b)
os.wait()
PY
"$KF" record -b ptrace --map -o "$T/tcp.json" -F html --report "$T/tcp-rec.html" -- "$PY" "$T/tcp.py"
eq "html workloads: record --map -F html of a TCP client and server exits 0" 0 $?

for w in http tcp; do
	"$KF" report -F html -o "$T/$w-rep.html" "$T/$w.json"
	eq "html workloads: report -F html of the saved $w footprint exits 0" 0 $?
	"$KF" map -F json "$T/$w.json" >"$T/$w-map.json"
	"$KF" map -F kconfig "$T/$w.json" >"$T/$w-map.config"
	"$KF" report "$T/$w.json" >"$T/$w.txt"
	case $w in
	http) waits="poll wait4" ;;
	tcp) waits="accept4 clock_nanosleep" ;;
	esac
	for page in rec rep; do
		KF_CDP_SHOT_OF='#timeline-box' timeout 120 python3 "$KF_TOP/tests/integration/html_cdp.py" "$CHROMIUM" \
			"$T/$w-$page.html" "$SHOTS/html-$w-$page-timeline.png" \
			"$(cat "$KF_TOP/tests/integration/html_workloads.js")" >"$T/$w-$page.cdp" 2>&1
		# shellcheck disable=SC2086 # the waiting syscalls are words
		python3 "$KF_TOP/tests/integration/html_check.py" "$w $page" "$T/$w-$page.cdp" "$T/$w.json" \
			"$T/$w-map.json" "$T/$w-map.config" "$KF_TOP/data/mapdb-6.1-x86_64.json" "$T/$w.txt" $waits ||
			not_ok "html workloads: $w $page: $(head -c 600 "$T/$w-$page.cdp")"
	done
done

# record --call-sites: the page's call-site tree per option, in Chromium. The workload with known call sites
# (tests/workloads/csite/): EVENTFD's tree holds eventfd2's two stacks under libc's eventfd (5 calls), the
# library's function (3) with main under it, and the EINVAL key apart; it is a part of the page after the answer.
if command -v gcc >/dev/null 2>&1 &&
	gcc -O0 -g -fPIC -shared -o "$T/libkfcsite.so" "$KF_TOP/tests/workloads/csite/lib.c" &&
	gcc -O0 -g -o "$T/csite" "$KF_TOP/tests/workloads/csite/main.c" -L"$T" -lkfcsite -Wl,-rpath,"$T"; then
	"$KF" record -q -b ptrace --call-sites --map -o "$T/cs.json" -F html --report "$T/cs.html" -- "$T/csite"
	eq "html workloads: record --call-sites --map -F html exits 0" 0 $?
	timeout 120 python3 "$KF_TOP/tests/integration/html_cdp.py" "$CHROMIUM" "$T/cs.html" "$SHOTS/html-csites.png" \
		"JSON.stringify((function () {
  var li = document.querySelector('#cs-options li.opt[data-opt=EVENTFD]'), o = {};
  if (!li) return o;
  o.by = Array.prototype.map.call(li.querySelectorAll('li.by > code'), function (c) { return c.textContent; });
  o.keys = Array.prototype.map.call(li.querySelectorAll('li.key > details > summary'), function (s) { return s.textContent; });
  var top = li.querySelector('li.key ul.cs > li');
  o.top = top ? [top.querySelector('.fr').textContent, +top.dataset.calls] : null;
  o.next = Array.prototype.map.call(top ? top.querySelectorAll(':scope > ul.cs > li') : [], function (l) {
    return [l.querySelector('.fr').textContent, +l.dataset.calls]; });
  o.after_answer = document.getElementById('call-sites').getBoundingClientRect().top > document.getElementById('answer').getBoundingClientRect().top;
  return o; })())" >"$T/cs.cdp" 2>&1
	python3 - "$T/cs.cdp" <<'PY' || not_ok "html workloads: call sites: $(head -c 600 "$T/cs.cdp")"
import json, sys
r = json.load(open(sys.argv[1]))
o = json.loads(r["results"][0])
checks = [
    ("EVENTFD needed by eventfd2", o.get("by") == ["eventfd2"]),
    ("its two keys, the EINVAL one apart", [k.split(" ")[0:2] for k in o.get("keys", [])] == [["eventfd2", "5"], ["eventfd2", "EINVAL"]]),
    ("the innermost frame libc's eventfd, 5 calls", o.get("top", [""])[0].startswith("libc.so.6 ") and o.get("top", [0, 0])[1] == 5),
    ("under it the library's function (3) and main (2)", sorted(o.get("next", [])) == [["csite main", 2], ["libkfcsite.so kf_csite_lib_eventfd", 3]]),
    ("after the answer", o.get("after_answer") is True),
    ("no errors on the page", not r["errors"]),
]
for name, good in checks:
    print(("ok" if good else "not ok") + " html workloads: call sites: " + name)
PY
else
	skip "html workloads: call sites" "no gcc, or the workload does not build"
fi
