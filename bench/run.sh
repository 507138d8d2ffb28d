#!/bin/sh
# `make bench`: wall-time overhead of kfootprint against its peers, side by side in one run.
#   sh bench/run.sh [BUILD-DIR]        (default build)
# For each workload, every tool runs once per repetition in the same order (paired runs); each cell is the
# median over the repetitions of (tool's wall time / untraced wall time of the same repetition).
# Then startup_and_storm(): the fixed cost on `true` and `python3 -c pass` (KF_BENCH_STARTUP_REPS runs, default 21),
# and the per-call cost on a getppid storm (KF_BENCH_STORM_LOOPS calls, default 10000000) beside perf stat counting
# one and two raw_syscalls tracepoints.
# Environment: KF_BENCH_REPS (default 5), KF_BENCH_ONLY (substring of workload names), KF_BENCH_PTRACE_OPTS
# (extra options for the ptrace column, e.g. --no-pin), KF_BENCH_REACH=0 (leave out the second table: what
# recording what each call reached costs; =bpf or =ptrace: only that backend's), KF_BENCH_MAIN=0 (only that table). Not a test: it prints figures and exits 0.
set -u
build=${1:-build}
kf=$build/kfootprint
[ -x "$kf" ] || { echo "bench: $kf not built (make)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "bench: needs python3" >&2; exit 1; }
exec python3 - "$kf" "${KF_BENCH_REPS:-5}" "${KF_BENCH_ONLY:-}" "${KF_BENCH_PTRACE_OPTS:-}" <<'PY'
import json, os, resource, shutil, statistics, subprocess, sys, tempfile, time

kf, reps, only, popts = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4].split()
workloads = [
    ("syscall basic", ["perf", "bench", "syscall", "basic", "--loop", "20000"], True),
    ("tar /usr/include", ["tar", "cf", "/dev/null", "/usr/include"], True),
    ("sched messaging", ["perf", "bench", "sched", "messaging", "-g", "2", "-l", "50"], False),
    ("python3 -c pass", ["python3", "-c", "pass"], True),
]
tmp = tempfile.mkdtemp(prefix="kf-bench.")
quiet = ["-F", "json", "--report", "/dev/null"]

def have(cmd):
    return shutil.which(cmd) is not None

def ok_run(argv):
    try:
        return subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60).returncode == 0
    except Exception:
        return False

tools = [("untraced", lambda w: w)]
tools.append(("kf ptrace", lambda w: [kf, "record", "-b", "ptrace"] + popts + quiet + ["--"] + w))
bpf_ok = ok_run([kf, "record", "-b", "bpf"] + quiet + ["--", "true"])
bpf_json = os.path.join(tmp, "bpf.json")
bpf_lost = []
tools.append(("kf bpf", (lambda w: [kf, "record", "-b", "bpf", "-o", bpf_json] + quiet + ["--"] + w) if bpf_ok else None))
tools.append(("bpf --no-time", (lambda w: [kf, "record", "-b", "bpf", "--no-time", "-o", bpf_json] + quiet + ["--"] + w)
              if bpf_ok else None))
tools.append(("strace -f -c", (lambda w: ["strace", "-f", "-c", "-o", "/dev/null", "--"] + w) if have("strace") else None))
perf_ok = have("perf") and ok_run(["perf", "trace", "-s", "-o", "/dev/null", "--", "true"])
tools.append(("perf trace -s", (lambda w: ["perf", "trace", "-s", "-o", "/dev/null", "--"] + w) if perf_ok else None))

def timed(argv):
    # A run that fails (or cannot start, e.g. a binary being rebuilt) is left out of the medians.
    t0 = time.monotonic()
    try:
        r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
    except (OSError, subprocess.TimeoutExpired):
        return None
    t = time.monotonic() - t0
    return t if r.returncode == 0 else None

def strace_counts(w):
    out = os.path.join(tmp, "st")
    subprocess.run(["strace", "-f", "-c", "-U", "name,calls,errors", "-o", out, "--"] + w,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    c = {}
    for line in open(out):
        f = line.split()
        if len(f) >= 2 and f[0] not in ("syscall", "total") and not f[0].startswith("-"):
            c[f[0]] = (int(f[1]), int(f[2]) if len(f) > 2 else 0)
    return c

def kf_counts(w):
    out = os.path.join(tmp, "kf.json")
    subprocess.run([kf, "record", "-b", "ptrace"] + popts + quiet + ["-o", out, "--"] + w,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    c = {}
    for s in json.load(open(out))["syscalls"]:
        a, b = c.get(s["name"], (0, 0))
        c[s["name"]] = (a + s["calls"], b + s["errors"])
    return c

def same_counts(w):
    a, b = strace_counts(w), kf_counts(w)
    for d in (a, b):
        d.pop("exit", None)
        d.pop("exit_group", None)
    if a == b:
        return "equal (%d calls)" % sum(v[0] for v in b.values())
    diff = [n for n in sorted(set(a) | set(b)) if a.get(n) != b.get(n)]
    return "differ: " + ", ".join(diff[:4])

print("kfootprint bench: wall time / untraced wall time, median of %d paired runs (%s, %d CPUs)"
      % (reps, os.uname().release, os.cpu_count()))
print("kf ptrace options: %s" % (" ".join(popts) or "(default)"))
hdr = "%-18s %9s" % ("workload", "untraced") + "".join(" %13s" % n for n, f in tools[1:]) + "  %9s  %s" % ("kf/strace", "counts vs strace")
print(hdr)
print("-" * len(hdr))
for name, w, deterministic in workloads:
    if (only and only not in name) or os.environ.get("KF_BENCH_MAIN", "1") == "0":
        continue
    times = {n: [] for n, f in tools}
    for r in range(reps):
        for n, f in tools:
            if f:
                times[n].append(timed(f(w)))
                if n in ("kf bpf", "bpf --no-time") and os.path.exists(bpf_json):
                    bpf_lost.append(json.load(open(bpf_json))["lost_events"])
                    os.unlink(bpf_json)
    base = [t for t in times["untraced"]]
    row = "%-18s %8.3fs" % (name, statistics.median([t for t in base if t]))
    med = {}
    for n, f in tools[1:]:
        ratios = [t / b for t, b in zip(times[n], base) if t and b]
        if not f or not ratios:
            row += " %13s" % "n/a"
            continue
        med[n] = statistics.median(ratios)
        row += " %12.2fx" % med[n] if n.startswith(("kf bpf", "bpf")) else " %12.1fx" % med[n]
    if "kf ptrace" in med and "strace -f -c" in med:
        row += "  %8.2fx" % (med["kf ptrace"] / med["strace -f -c"])
    else:
        row += "  %9s" % "n/a"
    if not have("strace"):
        row += "  n/a (no strace)"
    elif deterministic:
        row += "  " + same_counts(w)
    else:
        row += "  n/a (not deterministic)"
    print(row, flush=True)
if bpf_lost:
    print("kf bpf: %d lost events over %d runs" % (sum(bpf_lost), len(bpf_lost)))


def timed_cpu(argv):
    """(wall s, CPU s of the command and the children it waited for), or None when it failed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = timed(argv)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if t is None:
        return None
    return t, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)



# What recording what each call reached costs ptrace: the same command with and without --no-reach, paired runs.
# The dd storm is the worst case: every call takes an fd (one lookup per fd, then the per-process cache).
reach_workloads = [
    ("tar /usr/include", ["tar", "cf", "/dev/null", "/usr/include"]),
    ("find /usr -name *.h", ["find", "/usr", "-name", "*.h"]),
    # the storm's calls (getppid) reach nothing: the cost of the refinements' check alone, per call (bpf: 10 times
    # the loop, so that start-up is not all of it; ptrace's calls cost ~50 times bpf's)
    ("syscall basic", ["perf", "bench", "syscall", "basic", "--loop", "200000"]),
    ("dd 200k read+write", ["dd", "if=/dev/zero", "of=/dev/null", "bs=1", "count=200000", "status=none"]),
]

def reach_rows(backend, extra):
    """What recording what each call reached costs a backend: the same command with and without --no-reach."""
    if backend == "bpf" and not bpf_ok:
        print()
        print("bpf, what each call reached: n/a (the bpf backend cannot run here)")
        return
    base_cmd = [kf, "record", "-b", backend] + extra
    cols = [("untraced", lambda w: w),
            ("no-reach", lambda w: base_cmd + ["--no-reach"] + quiet + ["--"] + w),
            ("reach", lambda w: base_cmd + quiet + ["--"] + w)]
    print()
    print("%s, what each call reached: wall time / untraced, and with / without (--no-reach), median of %d;" % (backend, reps))
    print("then the same ratio of CPU time (user + system, tracer and workload), load average %.1f" % os.getloadavg()[0])
    hdr = "%-22s %9s %10s %10s %14s %14s" % ("workload", "untraced", "no-reach", "reach", "reach/no-reach", "cpu r/no-r")
    print(hdr)
    print("-" * len(hdr))
    for name, w in reach_workloads:
        if only and only not in name:
            continue
        if backend == "bpf" and w[:3] == ["perf", "bench", "syscall"]:
            w = w[:-1] + [str(int(w[-1]) * 10)]
            name += " %dM" % (int(w[-1]) // 1000000)
        if not have(w[0]):
            print("%-22s n/a (no %s)" % (name, w[0]))
            continue
        t = {n: [] for n, f in cols}
        cpu = {n: [] for n, f in cols[1:]}
        for r in range(reps):
            for n, f in cols:
                t[n].append(timed(f(w)))
            for n, f in cols[1:]:
                rc = timed_cpu(f(w))
                cpu[n].append(rc[1] if rc else None)
        base = t["untraced"]
        med = {n: statistics.median([x / b for x, b in zip(t[n], base) if x and b] or [float("nan")]) for n, f in cols[1:]}
        pair = statistics.median([x / y for x, y in zip(t["reach"], t["no-reach"]) if x and y] or [float("nan")])
        cpair = statistics.median([x / y for x, y in zip(cpu["reach"], cpu["no-reach"]) if x and y] or [float("nan")])
        print("%-22s %8.3fs %9.2fx %9.2fx %13.3fx %13.3fx" % (name, statistics.median([x for x in base if x]),
                                                           med["no-reach"], med["reach"], pair, cpair), flush=True)

reach_backends = os.environ.get("KF_BENCH_REACH", "1")
if reach_backends != "0":
    # KF_BENCH_REACH=bpf or =ptrace: that backend's table alone
    if reach_backends in ("1", "ptrace"):
        reach_rows("ptrace", popts)
    if reach_backends in ("1", "bpf"):
        reach_rows("bpf", [])


def phases(n, cache):
    """
    Where kfootprint -b bpf -- true spends its CPU time, from -v's account of each phase (kfootprint's own CPU,
    its threads included; the workload's and the guardian's apart): medians of n runs, with the programs from the
    program cache or loaded every time (KF_BPF_CACHE=0).
    """
    pats = [
        ("before record (exec, dynamic loader)", r"CPU of kfootprint: ([0-9.]+) ms before"),
        ("setting up (options, outputs, cgroup)", r"([0-9.]+) ms setting up"),
        ("opening and loading the programs", r"opened and (?:loaded|taken from the cache) in [0-9.]+ ms \(CPU ([0-9.]+)"),
        ("... and attaching them", r"loaded and attached in [0-9.]+ ms \(CPU ([0-9.]+)"),
        ("the backend in all", r"([0-9.]+) ms in the backend"),
        ("detaching", r"detached in [0-9.]+ ms \(CPU ([0-9.]+)"),
        ("freeing", r"freed in [0-9.]+ ms \(CPU ([0-9.]+)"),
        ("after the backend (report, cgroup removal)", r"([0-9.]+) ms after it"),
        ("the workload and the guardian", r"guardian: ([0-9.]+) ms"),
    ]
    import re
    vals = {k: [] for k, _ in pats}
    for _ in range(n):
        env = dict(os.environ, KF_BPF_CACHE="1" if cache else "0")
        r = subprocess.run([kf, "record", "-b", "bpf", "-v", "--report", "/dev/null", "--", "true"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
        for k, p in pats:
            m = re.search(p, r.stderr)
            if m:
                vals[k].append(float(m.group(1)))
    print()
    print("start-up of kfootprint -b bpf -- true, CPU per phase (-v), median of %d runs, %s" %
          (n, "programs from the cache" if cache else "loaded every time (KF_BPF_CACHE=0)"))
    for k, _ in pats:
        if vals[k]:
            print("  %-45s %6.2f ms" % (k, statistics.median(vals[k])))


def startup_and_storm():
    """
    The fixed cost (start-up and teardown, which is most of a short workload) and the per-call cost of one
    syscall tracepoint: kfootprint's two bpf modes beside ptrace, strace -f -c, perf trace -s and, on the
    storm, perf stat counting raw_syscalls tracepoints in the kernel (the floor for one and for two
    tracepoints). Paired: every tool once per repetition, in turn; a cell is the median of its wall and CPU
    times (CPU: user + system of the tool and what it waited for), then the medians of the ratios of each to
    the untraced run of the same repetition.
    """
    sreps = int(os.environ.get("KF_BENCH_STARTUP_REPS", "21"))
    loops = os.environ.get("KF_BENCH_STORM_LOOPS", "10000000")
    q = ["--report", "/dev/null"]
    bpf = bpf_ok
    start_tools = [
        ("untraced", lambda w: w),
        ("kf bpf", (lambda w: [kf, "record", "-b", "bpf"] + q + ["--"] + w) if bpf else None),
        ("bpf --no-time", (lambda w: [kf, "record", "-b", "bpf", "--no-time"] + q + ["--"] + w) if bpf else None),
        # "kf bpf" takes its programs from the program cache after the first run; this one loads them every time
        ("bpf no cache", (lambda w: ["env", "KF_BPF_CACHE=0", kf, "record", "-b", "bpf"] + q + ["--"] + w) if bpf else None),
        # the programs verified on two CPUs (src/trace/bpf_load.c; not the default: see docs/bpf.md)
        ("bpf 2 CPUs", (lambda w: ["env", "KF_BPF_SPLIT=1", kf, "record", "-b", "bpf"] + q + ["--"] + w) if bpf else None),
        ("kf ptrace", lambda w: [kf, "record", "-b", "ptrace"] + popts + q + ["--"] + w),
        ("strace -f -c", (lambda w: ["strace", "-f", "-c", "-o", "/dev/null", "--"] + w) if have("strace") else None),
        ("perf trace -s", (lambda w: ["perf", "trace", "-s", "-o", "/dev/null", "--"] + w) if perf_ok else None),
    ]

    def table(title, tools, workloads, n):
        names = [t for t, f in tools if f]
        workloads = [(name, w) for name, w in workloads if not only or only in name]
        if not workloads:
            return
        print()
        print(title)
        hdr = "%-22s" % "workload" + "".join(" %25s" % t for t in names)
        print(hdr)
        print("-" * len(hdr))
        for name, w in workloads:
            res = {t: [] for t in names}
            for r in range(n):
                for t, f in tools:
                    if f:
                        res[t].append(timed_cpu(f(w)))
            base = res["untraced"]
            row = "%-22s" % name
            for t in names:
                ok = [(x, b) for x, b in zip(res[t], base) if x and b]
                if not ok:
                    row += " %25s" % "n/a"
                    continue
                wall = statistics.median(x[0] for x, b in ok)
                cpu = statistics.median(x[1] for x, b in ok)
                ratio = statistics.median(x[0] / b[0] for x, b in ok)
                # on a shared machine the CPU ratio holds where waiting for a CPU swells the wall times
                cratio = statistics.median(x[1] / b[1] for x, b in ok if b[1] > 0) if any(b[1] > 0 for x, b in ok) else 0
                cell = "%.1f/%.1f ms" % (wall * 1e3, cpu * 1e3) if wall < 1 else "%.2f/%.2f s" % (wall, cpu)
                row += " %25s" % (cell if t == "untraced" else "%s %.2f/%.2fx" % (cell, ratio, cratio))
            print(row, flush=True)

    # Debian's python3: the one in PATH may be a shim (pyenv's is a bash script), whose start-up is not python's
    py = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else "python3"
    table("start-up: wall/CPU, median of %d paired runs; ratios to untraced: wall/CPU" % sreps, start_tools,
          [("start-up: true", ["true"]), ("start-up: python3 pass", [py, "-c", "pass"])], sreps)
    if bpf and (not only or only in "start-up: true"):
        phases(sreps, True)
        phases(sreps, False)
    storm = ["perf", "bench", "syscall", "basic", "--loop", loops]
    perf_stat = have("perf") and ok_run(["perf", "stat", "-e", "raw_syscalls:sys_enter", "-o", "/dev/null", "--", "true"])
    storm_tools = [
        ("untraced", lambda w: w),
        ("perf stat sys_enter", (lambda w: ["perf", "stat", "-e", "raw_syscalls:sys_enter", "-o", "/dev/null", "--"] + w)
         if perf_stat else None),
        ("perf stat enter+exit", (lambda w: ["perf", "stat", "-e", "raw_syscalls:sys_enter,raw_syscalls:sys_exit",
                                             "-o", "/dev/null", "--"] + w) if perf_stat else None),
        ("kf bpf", (lambda w: [kf, "record", "-b", "bpf"] + q + ["--"] + w) if bpf else None),
        ("bpf --no-time", (lambda w: [kf, "record", "-b", "bpf", "--no-time"] + q + ["--"] + w) if bpf else None),
    ]
    table("storm (%s getppid): wall/CPU, median of %d paired runs; ratios to untraced: wall/CPU" % (loops, reps),
          storm_tools, [("storm: syscall basic", storm)], reps)
    if bpf and (not only or only in "storm: syscall basic"):
        # --no-time counts exactly: every getppid of the storm, from sys_exit alone
        out = os.path.join(tmp, "storm.json")
        subprocess.run([kf, "record", "-b", "bpf", "--no-time", "-o", out] + q + ["--"] + storm,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        n = sum(s["calls"] for s in json.load(open(out))["syscalls"] if s["name"] == "getppid")
        print("bpf --no-time counted %d getppid calls for a loop of %s" % (n, loops))


startup_and_storm()
shutil.rmtree(tmp, ignore_errors=True)
PY
