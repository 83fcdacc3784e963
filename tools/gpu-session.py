#!/usr/bin/env python3
"""One GPU-host session: tests, compute-sanitizer, benchmarks, in one go.

Run from the repository root on the GPU host, after packing the build with
`../shared/gpu/bundle build .gpu` here and carrying `.gpu` there:

    tools/gpu-session.py [--tests SUBSTR ...] [--sanitize SUBSTR ...]
                         [--bench SUBSTR ...] [--budget SECONDS]

--tests     run the bundled meson tests whose name contains a SUBSTR
            ('all' = all tests); --tests alone runs every test whose name
            ends in -gpu (a SUBSTR may not start with '-'); without --tests
            no test runs
--sanitize  run compute-sanitizer memcheck, racecheck and synccheck over the
            GPU tests whose name contains a SUBSTR; TOOL:SUBSTR runs one
            tool on them (e.g. racecheck:reliability-input)
--bench     run the benchmarks .gpu/build/tests/bench/*/<name> whose name
            contains a SUBSTR ('all' = every benchmark)
--jobs      parallel tests, or sanitizer runs, at once (default 1)
--budget    stop starting new steps after this many seconds

Logs go to $OUT (or ./gpu-logs): tests.log, sanitize.log, bench.log,
device.txt and summary.txt; the summary is printed last.
"""
import argparse, concurrent.futures, io, json, os, shlex, subprocess, sys, threading, time

ROOT = os.getcwd()
GPU = os.path.join(ROOT, ".gpu")
OUT = os.environ.get("OUT") or os.path.join(ROOT, "gpu-logs")
os.makedirs(OUT, exist_ok=True)
START = time.time()
summary = []
lock = threading.Lock()  # summary.txt and tests.log, written from several threads


def bundle_env():
    r = subprocess.run(["bash", "-c", f"source '{GPU}/env.sh' && env -0"],
                       capture_output=True)
    env = dict(os.environ)
    env.update(dict(kv.split("=", 1) for kv in r.stdout.decode().split("\0") if "=" in kv))
    # a fresh registry: a warm host may keep one that blacklisted an
    # earlier, broken build of the plugin
    env["GST_REGISTRY"] = f"/tmp/gst-registry-{os.getpid()}.bin"
    return env


def load_tests():
    text = open(os.path.join(GPU, "tests.json")).read().replace("@BUNDLE@", GPU)
    text = text.replace("@SOURCE@", ROOT)  # tools/pack-gpu.sh: the source tree
    return json.loads(text)


def test_env(base, t):
    e = dict(base)
    e.update(t.get("env") or {})
    # path-like variables of the test extend the bundle's instead of
    # replacing them (meson sets LD_LIBRARY_PATH to the project's libraries)
    for var in ("GST_PLUGIN_PATH", "LD_LIBRARY_PATH"):
        if var in (t.get("env") or {}) and base.get(var):
            e[var] = t["env"][var] + ":" + base[var]
    e["GST_REGISTRY"] = base["GST_REGISTRY"]
    # the bundle has no ../shared: the data travels in .gpu/data when carried
    data = os.path.join(GPU, "data")
    if os.path.isdir(data):
        e["CUDAVISION_DATA"] = data
    return e


def run(cmd, env, log, timeout, cwd=None):
    t0 = time.time()
    log.write(f"\n$ {' '.join(shlex.quote(c) for c in cmd)}\n")
    log.flush()
    try:
        p = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=timeout)
        out, rc = p.stdout, p.returncode
    except subprocess.TimeoutExpired as x:
        # what it printed before the limit (bytes, even with text=True)
        out = x.stdout or ""
        out, rc = out.decode(errors="replace") if isinstance(out, bytes) else out, -999
    log.write(out)
    log.write(f"[exit {rc}, {time.time() - t0:.1f}s]\n")
    log.flush()
    return rc, out


# Tests that make CUDA calls fail on purpose (injected faults): the tool
# checks the kernels' memory accesses, not the API errors the test provokes
# (sgm-identity-refused-gpu: cooperative grids too large for the device).
INTENDED_API_ERRORS = ("reliability-faults-gpu", "sgm-identity-refused-gpu")


def note(line):
    """Adds a line to the summary, written at once: a run killed at its time
    limit still brings back what it finished."""
    with lock:
        summary.append(line)
        with open(os.path.join(OUT, "summary.txt"), "w") as f:
            f.write("\n".join(summary) + "\n")


def over_budget(args):
    return args.budget and time.time() - START > args.budget


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tests", nargs="*")
    ap.add_argument("--sanitize", nargs="*")
    ap.add_argument("--bench", nargs="*")
    ap.add_argument("--tools", nargs="*", default=["memcheck", "racecheck", "synccheck"],
                    help="compute-sanitizer tools for --sanitize")
    ap.add_argument("--sanitize-env", nargs="*", default=[],
                    help="VAR=VALUE for the sanitizer runs, e.g. "
                    "GST_CHECKS_IGNORE=test_large_frames")
    ap.add_argument("--sanitize-timeout", type=float, default=240,
                    help="seconds one sanitizer run may take")
    ap.add_argument("--test-timeout", type=float, default=150,
                    help="seconds one test may take (a hang must not eat the run)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="parallel tests, or sanitizer runs, at once (the GPU is shared)")
    ap.add_argument("--budget", type=float, default=0)
    args = ap.parse_args()

    env = bundle_env()
    with open(os.path.join(OUT, "device.txt"), "w") as f:
        f.write(subprocess.run(["nvidia-smi"], capture_output=True, text=True).stdout)
    tests = load_tests()

    if args.tests is not None:
        want = args.tests or ["-gpu"]
        sel = [t for t in tests if "all" in want or any(w in t["name"] for w in want)]
        tests_log = os.path.join(OUT, "tests.log")
        open(tests_log, "w").close()

        def run_test(t):
            if over_budget(args):
                note(f"test  {t['name']}: not run (budget)")
                return
            log = io.StringIO()
            rc, out = run(t["cmd"], test_env(env, t), log,
                          min((t.get("timeout") or 30) * 3, args.test_timeout),
                          t.get("workdir"))
            with lock, open(tests_log, "a") as f:
                f.write(log.getvalue())
            status = {0: "PASS", 77: "SKIP"}.get(rc, "FAIL")
            note(f"test  {status} {t['name']}")
            if status == "FAIL":
                tail = "\n".join(out.splitlines()[-15:])
                note("      " + tail.replace("\n", "\n      "))

        def run_serial(ts):
            for t in ts:
                run_test(t)

        # meson's parallel tests share the GPU (--jobs at once); the others
        # (elements, reliability: deadlines, memory checks) run one after
        # the other, beside them
        serial = [t for t in sel if not t.get("is_parallel", True)]
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs) + 1) as pool:
            futures = [pool.submit(run_serial, serial)]
            futures += [pool.submit(run_test, t) for t in sel if t not in serial]
            for f in futures:
                f.result()

    if args.sanitize is not None:
        runs = []
        for w in args.sanitize or ["-gpu"]:
            # TOOL:SUBSTR runs that tool only, SUBSTR every tool of --tools
            tools, _, sub = w.rpartition(":")
            for tool in [tools] if tools else args.tools:
                runs += [(tool, t) for t in tests if t["name"].endswith("-gpu")
                         and sub in t["name"] and (tool, t) not in runs]

        def sanitize(job):
            tool, t = job
            if over_budget(args):
                return f"{tool} {t['name']}: not run (budget)", ""
            cmd = ["compute-sanitizer", "--tool", tool, "--error-exitcode", "99",
                   "--print-limit", "20"]
            if t["name"] in INTENDED_API_ERRORS:
                cmd += ["--report-api-errors", "no"]
            cmd += t["cmd"]
            log = io.StringIO()
            # the tests' reduced mode (cv_test_quick), whatever the tool's
            # version puts in their environment
            tenv = test_env(env, t)
            tenv["CV_TEST_QUICK"] = "1"
            tenv.update(kv.split("=", 1) for kv in args.sanitize_env)
            rc, out = run(cmd, tenv, log, args.sanitize_timeout,
                          t.get("workdir"))
            errs = [l for l in out.splitlines() if "SUMMARY:" in l]
            if rc != 0 and "SKIP" in out and "instrumented API call" in out:
                errs = ["skipped (the test skips itself)"]
            return (f"{tool:9s} {t['name']}: exit {rc}; "
                    f"{errs[-1].strip() if errs else 'no summary'}", log.getvalue())

        with open(os.path.join(OUT, "sanitize.log"), "w") as log, \
                concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            # noted as they finish: a run stopped at its limit keeps them
            jobs = [pool.submit(sanitize, r) for r in runs]
            for job in concurrent.futures.as_completed(jobs):
                line, text = job.result()
                note(line)
                log.write(text)
                log.flush()

    if args.bench is not None:
        want = args.bench or ["all"]
        bench_root = os.path.join(GPU, "build", "tests", "bench")
        benches = []
        for d, _, files in sorted(os.walk(bench_root)):
            for f in sorted(files):
                p = os.path.join(d, f)
                if f.startswith("bench") and os.access(p, os.X_OK):
                    benches.append(p)
        with open(os.path.join(OUT, "bench.log"), "w") as log:
            for b in benches:
                name = os.path.basename(b)
                if not ("all" in want or any(w in name for w in want)):
                    continue
                if over_budget(args):
                    note(f"bench {name}: not run (budget)")
                    continue
                rc, out = run([b], test_env(env, {}), log, args.test_timeout)
                note(f"bench {name}: exit {rc}")

    text = "\n".join(summary) + f"\n[{time.time() - START:.0f}s]\n"
    with open(os.path.join(OUT, "summary.txt"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
