#!/bin/sh
# Every reader and renderer costs time and memory linear in its input (issue 24; docs/reports.md, "Cost"): at two
# sizes N and 4N of the inputs that were quadratic (a process chain N deep, N syscall rows), each command's CPU
# time and peak RSS (the child's, from wait4) may grow at most 8 times, twice the linear 4: a quadratic cost
# grows 16 times. Each child runs under a CPU limit of 60 s and an address-space limit of 4 GiB, so an old
# quadratic build fails here instead of hanging the suite. Times are the better of two runs, never wall clock.
. "$(dirname "$0")/../lib.sh"

GEN="$KF_TOP/tests/fuzz/gen_extreme.py"
N=${KF_COST_N:-5000}
for shape in chain rows; do
	for n in $N $((4 * N)); do
		python3 "$GEN" $shape $n >"$T/$shape-$n.json"
		python3 "$GEN" $shape $n | sed 's/"p\([0-9]*\)"/"q\1"/' >"$T/$shape-$n-b.json"
	done
done
python3 - "$KF" "$T" "$N" <<'PY'
import os, resource, subprocess, sys

kf, tmp, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
formats = subprocess.run([kf, "report", "-F", "?", "/dev/null"], capture_output=True, text=True).stderr
formats = formats.split("expected one of ", 1)[1].strip().replace(",", "").split()
commands = [["report", "-F", f, "{a}"] for f in formats] + [
    ["map", "--no-running", "{a}"], ["map", "--no-running", "-F", "json", "{a}"], ["seccomp", "{a}"],
    ["merge", "{a}", "{b}"], ["diff", "{a}", "{b}"]]


def limits():
    resource.setrlimit(resource.RLIMIT_CPU, (60, 60))
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def cost(argv):
    best_t, best_rss = None, None
    for _ in range(2):
        devnull = os.open(os.devnull, os.O_WRONLY)
        pid = os.fork()
        if pid == 0:
            limits()
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            os.execv(kf, [kf] + argv)
        os.close(devnull)
        _, status, ru = os.wait4(pid, 0)
        # diff exits 1 when the footprints differ, as diff(1) does
        if not os.WIFEXITED(status) or os.WEXITSTATUS(status) not in ((0, 1) if argv[0] == "diff" else (0,)):
            return None, status
        t = ru.ru_utime + ru.ru_stime
        best_t = t if best_t is None else min(best_t, t)
        best_rss = ru.ru_maxrss if best_rss is None else min(best_rss, ru.ru_maxrss)
    return (best_t, best_rss), 0


for shape in ("chain", "rows"):
    for cmd in commands:
        name = "%s: %s" % (shape, " ".join(c for c in cmd if not c.startswith("{")))
        got = []
        for size in (n, 4 * n):
            argv = [c.format(a="%s/%s-%d.json" % (tmp, shape, size), b="%s/%s-%d-b.json" % (tmp, shape, size))
                    for c in cmd]
            r, status = cost(argv)
            if r is None:
                got = None
                print("not ok %s at %d: status %#x (killed past 60 s of CPU or 4 GiB?)" % (name, size, status))
                break
            got.append(r)
        if got is None:
            continue
        (t1, m1), (t4, m4) = got
        # a floor under the small time: 50 ms of CPU is all noise on a shared machine
        tr, mr = t4 / max(t1, 0.05), m4 / m1
        figures = "CPU %.2f s -> %.2f s (x%.1f), RSS %d -> %d MB (x%.1f)" % (t1, t4, tr, m1 >> 10, m4 >> 10, mr)
        if tr <= 8 and mr <= 8:
            print("ok %s: N %d -> %d: %s" % (name, n, 4 * n, figures))
        else:
            print("not ok %s: N %d -> %d grows faster than linear: %s" % (name, n, 4 * n, figures))
PY
