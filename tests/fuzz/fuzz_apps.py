#!/usr/bin/env python3
"""Argument fuzzer for fabric's command-line tools.

For one tool: reads its options from --help (name, type, whether it takes a list),
then runs it on argument vectors drawn from each option's type and its edges
(missing, junk, 0, -1, 2^31, 2^32+1, 2^63, 1e999, nan, inf, empty lists, mixed
separators), plus unknown flags, a missing value and bad configuration files.
Each run has a time limit; under the sanitizer build each also has ASan's memory
limits. A vector passes when the tool exits 0, 2 or 3 within the limit, prints no
sanitizer report, and, when it asked for JSON and exited 0, prints JSON that
parses and holds no NaN or infinity.

  fuzz_apps.py TOOL [--vectors N] [--seed S] [--timeout SEC] [--base "ARGS"]
               [--skip --opt1,--opt2] [--workdir DIR]

--base gives arguments every run starts with (to keep valid runs short; those
options are not fuzzed); --skip names options left out (the reason belongs where
the test is registered). Prints a summary; exit status 1 when a vector failed.
"""
import argparse
import json
import os
import random
import re
import shlex
import subprocess
import sys
import time

EDGES = {
    "UINT": ["0", "1", "2", "-1", "7", "65535", "65536", "2147483648", "4294967297", "9223372036854775808",
             "18446744073709551616", "1e999", "nan", "inf", "", "junk", "3x", "+5", "0x10", " 4"],
    "INT": ["0", "1", "-1", "-2147483649", "2147483648", "4294967297", "9223372036854775808", "1e999", "nan", "",
            "junk", "3x", "-0"],
    "FLOAT": ["0", "1", "-1", "0.5", "1e-320", "1e300", "1e999", "-1e999", "nan", "inf", "-inf", "", "junk", "1.5x",
              "0x1p3", "4294967297"],
    "TEXT": ["", "junk", "torus", "mesh", "json", "csv", "-1", "\u00e9", "x" * 300],
}
LIST_EDGES = ["", ",", "1,,2", "1;2", "8,8,8,8,8", "0,0", "-1,4", "4294967297,2", "2,2", "3", "nan,1", "1,2,3,4",
              "16,16,16,16", "1000,2"]


def options_of(tool):
    """(name, type or None for a flag, takes a list) for every option --help lists."""
    out = subprocess.run([tool, "--help"], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        sys.exit(f"fuzz_apps: {tool} --help exited {out.returncode}")
    opts = []
    for line in out.stdout.splitlines():
        # "  --dims INT:in [1, 1073741824]=[8,8] ...   extents": the spec ends where the
        # description starts (two spaces); the type's valid range follows a colon.
        spec = re.split(r"\s{2,}", line.strip())[0]
        m = re.match(r"^(?:-\w,)?(--[\w-]+)(?:\s+([A-Z]+))?", spec)
        if not line.startswith("  ") or not m or m.group(1) in ("--help", "--config", "--dump-config"):
            continue
        opts.append((m.group(1), m.group(2), spec.endswith(" ...")))
    if not opts:
        sys.exit(f"fuzz_apps: no options found in {tool} --help")
    return opts


def value_for(kind, is_list, rng):
    if is_list and rng.random() < 0.6:
        return rng.choice(LIST_EDGES)
    return rng.choice(EDGES.get(kind, EDGES["TEXT"]))


def vectors(opts, rng, count, workdir):
    junk_config = os.path.join(workdir, "junk_config.json")
    with open(junk_config, "w") as f:
        f.write('{"no_such_key": 1, ')
    wrong_config = os.path.join(workdir, "wrong_config.json")
    with open(wrong_config, "w") as f:
        json.dump({opts[0][0][2:].replace("-", "_"): [1, "x"]}, f)
    specials = [["--nonsense"], [opts[0][0]] if opts[0][1] else ["--nonsense=1"], ["--config", junk_config],
                ["--config", wrong_config], ["--config", os.path.join(workdir, "missing.json")], ["--dump-config"],
                ["-x"], ["positional"]]
    for i in range(count):
        if i < len(specials):
            yield specials[i]
            continue
        args = []
        for name, kind, is_list in rng.sample(opts, k=min(len(opts), rng.choice([1, 1, 2, 2, 3]))):
            if kind is None:
                args.append(name)
            elif rng.random() < 0.5:
                args += [name, value_for(kind, is_list, rng)]
            else:
                args.append(f"{name}={value_for(kind, is_list, rng)}")
        yield args


def bad_json(text):
    """Why `text` is not clean JSON, or None."""
    def refuse(token):
        raise ValueError(f"holds {token}")
    try:
        json.loads(text, parse_constant=refuse)
    except ValueError as e:
        return str(e)
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tool")
    parser.add_argument("--vectors", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--base", default="")
    parser.add_argument("--skip", default="")
    parser.add_argument("--workdir", default=".")
    args = parser.parse_args()
    base = shlex.split(args.base)
    skip = set(filter(None, args.skip.split(","))) | {a for a in base if a.startswith("--")}
    opts = [o for o in options_of(args.tool) if o[0] not in skip]
    name = os.path.basename(args.tool)
    rng = random.Random(f"{name}:{args.seed}")
    os.makedirs(args.workdir, exist_ok=True)
    env = dict(os.environ)
    # Under ASan: an allocation past 2 GB fails (the tool must say so), a process past 3 GB is stopped.
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":allocator_may_return_null=1:max_allocation_size_mb=2048:" \
                                                        "hard_rss_limit_mb=3072:detect_leaks=1"
    env["UBSAN_OPTIONS"] = env.get("UBSAN_OPTIONS", "") + ":print_stacktrace=1:halt_on_error=1"
    counts, failures, slowest = {}, [], (0.0, [])
    started = time.monotonic()
    for vec in vectors(opts, rng, args.vectors, args.workdir):
        argv = [args.tool] + base + vec
        t0 = time.monotonic()
        try:
            run = subprocess.run(argv, capture_output=True, text=True, errors="replace", timeout=args.timeout,
                                 env=env, cwd=args.workdir)
        except subprocess.TimeoutExpired:
            failures.append((argv, f"still running after {args.timeout:g} s"))
            counts["timeout"] = counts.get("timeout", 0) + 1
            continue
        took = time.monotonic() - t0
        slowest = max(slowest, (took, argv))
        counts[run.returncode] = counts.get(run.returncode, 0) + 1
        problem = None
        if run.returncode not in (0, 2, 3):
            problem = f"exit status {run.returncode}"
        elif "Sanitizer" in run.stderr or "runtime error:" in run.stderr:
            problem = "sanitizer report"
        elif run.returncode == 2 and not run.stderr.strip():
            problem = "status 2 without a message"
        elif run.returncode == 0 and "--json" in argv and "--dump-config" not in argv and "--help" not in argv:
            why = bad_json(run.stdout)
            if why:
                problem = f"JSON output {why}"
        if problem:
            failures.append((argv, problem + "\n" + run.stderr[-1500:]))
    total = time.monotonic() - started
    summary = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items(), key=lambda kv: str(kv[0])))
    print(f"fuzz_apps {name}: {args.vectors} vectors over {len(opts)} options in {total:.1f} s; exit statuses "
          f"{{{summary}}}; {len(failures)} failed; slowest {slowest[0]:.2f} s: {shlex.join(slowest[1][1:])}")
    for argv, problem in failures[:20]:
        print(f"FAILED: {shlex.join(argv)}\n  {problem}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
