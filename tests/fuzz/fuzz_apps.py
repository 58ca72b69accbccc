#!/usr/bin/env python3
"""Argument fuzzer for fabric's command-line tools (the convention: docs/tools.md).

For one tool: reads its options from --help (names, type, valid range or words,
whether it takes a list), then runs it on vectors of four kinds:

- options: one to three options at once, each value drawn from its valid range or
  words (its ends and middle) or from its type's edges (missing, junk, 0, -1,
  2^32+1, 2^64, 1e999, nan, inf, empty lists, mixed separators); some given twice;
- configuration files (--config): one to three keys, each with a valid value, a
  value of the wrong JSON type, a number that does not fit, or with an unknown or
  duplicate key or text after the document;
- output paths: --output naming a directory, /dev/full or a file in a missing
  folder, and standard output on /dev/full;
- files, special files and output targets (issue 56): every FILE option (read or
  written) given a FIFO, a directory, /dev/zero, /dev/null, /dev/stdout, a closed
  descriptor (/dev/fd/9), /proc/self/maps, a loop of symbolic links, a name of 5,000
  characters, a missing file, an empty file or one of junk; outputs through a
  symbolic link to a precious file, onto the configuration file read, or two outputs
  onto one file;
- fixed specials: an unknown flag, a missing value, a missing, truncated or
  directory configuration file, --dump-config, --version, a positional word.

Each run has a time limit; under the sanitizer build each also has ASan's memory
limits. A vector passes when the tool exits 0, 2 or 3 within the limit, prints no
sanitizer report, says why (a fabric: line) when it exits 2, exits 2 where the
vector is known bad (a broken configuration file, an output that cannot be
written), leaves no temporary file behind and a precious file as it was unless the
run succeeded, and, when it exits 0: prints no NaN or infinity, its JSON parses, and
the figures mean what they say (accepted at most offered plus noise, a mean
latency at least the mean hops, a latency only where a packet was measured).

  fuzz_apps.py TOOL [--vectors N] [--seed S] [--timeout SEC] [--base "ARGS"]
               [--skip --opt1,--opt2] [--workdir DIR]

--base gives arguments every run starts with (to keep valid runs short; those
options are not fuzzed); --skip names options left out (the reason belongs where
the test is registered). Prints a summary; exit status 1 when a vector failed.
"""
import argparse
import json
import math
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
    "TEXT": ["", "junk", "torus", "mesh", "json", "csv", "-1", "\u00e9", "x" * 300, "1:2:0.5", "0.1:0.2:0.1"],
}
LIST_EDGES = ["", ",", "1,,2", "1;2", "8,8,8,8,8", "0,0", "-1,4", "4294967297,2", "2,2", "3", "nan,1", "1,2,3,4",
              "16,16,16,16", "1000,2"]
# Paths a FILE option is given half the time: special files and the system's oddities (made by special_paths).
SPECIALS = ["fifo", "folder", "/dev/zero", "/dev/null", "/dev/stdout", "/dev/fd/9", "/proc/self/maps", "loop_a",
            "long_name", "missing.csv", "empty.csv", "junk.csv"]
# JSON values a configuration file may hold that no option takes as they are.
BAD_JSON = ["1e999", "-1e999", "18446744073709551616", "4294967300", "-1", "1.5", "\"12\"", "[1, \"x\"]", "{}",
            "null", "true", "[]"]


class Option:
    """One option as --help shows it: `name`, its `kind` (UINT, INT, FLOAT, TEXT or
    None for a flag), the range (lo, hi) or the words it takes, and whether it takes a list."""

    def __init__(self, name, spec):
        self.name, self.kind, self.range, self.words, self.is_list = name, None, None, None, False
        if not spec:
            return
        self.is_list = spec.endswith(" ...")
        m = re.match(r"^([A-Z]+)(?::(.*))?$", spec.removesuffix(" ...").strip())
        if not m:
            return
        self.kind = m.group(1)
        shown = re.sub(r"=[^=]*$", "", m.group(2) or "")  # the default follows the last '='
        if w := re.match(r"^\{(.*)\}$", shown):
            self.words = w.group(1).split(",")
        elif r := re.match(r"^in [\[(]([^,]+), ([^\])]+)[\])]$", shown):
            self.range = (float(r.group(1)), float(r.group(2)))
        elif r := re.match(r"^>= (\S+)$", shown):
            self.range = (float(r.group(1)), None)

    def key(self):
        return self.name[2:].replace("-", "_")

    def valid(self, rng):
        """A value the option accepts, as text (a list's: one to three of them)."""
        if self.words:
            one = lambda: rng.choice(self.words)
        elif self.range:
            lo, hi = self.range
            hi = lo + 16 if hi is None else min(hi, lo + 1e6)
            if self.kind == "FLOAT":
                one = lambda: repr(rng.choice([lo, hi, (lo + hi) / 2, lo + (hi - lo) * rng.random()]))
            else:
                one = lambda: str(int(rng.choice([lo, hi, (lo + hi) // 2, rng.randint(int(lo), int(hi))])))
        else:
            one = lambda: rng.choice(EDGES.get(self.kind or "TEXT", EDGES["TEXT"]))
        return ",".join(one() for _ in range(rng.choice([1, 1, 2, 3]) if self.is_list else 1))

    def value(self, rng):
        if self.kind == "FILE" and rng.random() < 0.5:
            return rng.choice(SPECIALS)
        if rng.random() < 0.5:
            return self.valid(rng)
        if self.is_list and rng.random() < 0.6:
            return rng.choice(LIST_EDGES)
        return rng.choice(EDGES.get(self.kind or "TEXT", EDGES["TEXT"]))


def options_of(tool):
    """Every option --help lists, but those of the convention itself (--help, --config, ...)."""
    out = subprocess.run([tool, "--help"], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        sys.exit(f"fuzz_apps: {tool} --help exited {out.returncode}")
    opts = []
    for line in out.stdout.splitlines():
        # "  --in-flight,--window UINT:>= 1=3   words ...": the spec ends where the description starts
        # (two spaces); the names are comma-separated, the type's valid range follows a colon.
        spec = re.split(r"\s{2,}", line.strip())[0]
        m = re.match(r"^(?:-\w,)?(--[\w-]+)(?:,--[\w-]+)*(?:\s+(.+))?$", spec)
        if not line.startswith("  ") or not m or m.group(1) in ("--help", "--config", "--dump-config", "--version",
                                                                "--output"):
            continue
        opts.append(Option(m.group(1), m.group(2)))
    if not opts:
        sys.exit(f"fuzz_apps: no options found in {tool} --help")
    return opts


def config_vector(opts, rng, path):
    """A configuration file of one to three keys and the vector that reads it; known_bad when it must be refused."""
    picked = rng.sample(opts, k=min(len(opts), rng.choice([1, 2, 3])))
    entries, bad = [], False
    for o in picked:
        if o.kind is None:
            entries.append((o.key(), rng.choice(["true", "false"])))
            continue
        if rng.random() < 0.5:
            texts = o.valid(rng).split(",") if o.is_list else [o.valid(rng)]
            as_json = [t if o.kind != "TEXT" else json.dumps(t) for t in texts]
            entries.append((o.key(), "[" + ", ".join(as_json) + "]" if o.is_list else as_json[0]))
        else:
            value = rng.choice(BAD_JSON)
            entries.append((o.key(), value))
            # Refused whatever the option: no number past a double, no object, no null; no integer past 64 bits.
            bad = bad or value in ("1e999", "-1e999", "{}", "null") or (
                value == "18446744073709551616" and o.kind in ("UINT", "INT"))
    trailer = ""
    flaw = rng.random()
    if flaw < 0.15:
        entries.append(("no_such_key", "1"))
        bad = True
    elif flaw < 0.3:
        entries.append(entries[0])
        bad = True
    elif flaw < 0.4:
        trailer = rng.choice([" x", " {}", "\n}", ",", " 1"])
        bad = True
    with open(path, "w") as f:
        f.write("{" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in entries) + "}" + trailer)
    return ["--config", path], bad


def output_vector(rng, workdir):
    """--output that cannot be written: must be refused (status 2), before any work."""
    target = rng.choice([workdir, "/dev/full", os.path.join(workdir, "missing", "x.out")])
    return ["--output", target]


def special_paths(workdir, rng):
    """The special files SPECIALS names, made in the working directory (the runs' own)."""
    os.makedirs(os.path.join(workdir, "folder"), exist_ok=True)
    fifo = os.path.join(workdir, "fifo")
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    for a, b in (("loop_a", "loop_b"), ("loop_b", "loop_a")):
        if not os.path.lexists(os.path.join(workdir, a)):
            os.symlink(b, os.path.join(workdir, a))
    with open(os.path.join(workdir, "empty.csv"), "w"):
        pass
    with open(os.path.join(workdir, "junk.csv"), "wb") as f:
        f.write(bytes(rng.randrange(256) for _ in range(2048)))
    SPECIALS[SPECIALS.index("long_name")] = "x" * 5000


def target_vector(opts, rng, workdir):
    """Outputs that must lose nothing: through a link to the precious file, onto the configuration file read, or
    two outputs onto one file. (arguments, known_bad)."""
    files = [o for o in opts if o.kind == "FILE"]
    draw = rng.random()
    if draw < 0.4:
        return ["--output", "precious_link"], False
    config = os.path.join(workdir, "read.json")
    with open(config, "w") as f:
        f.write("{}")
    if draw < 0.7 or not files:
        return ["--config", config, "--output", config], True
    other = rng.choice(files)
    return ["--output", "twice.out", other.name, "twice.out"], True


def vectors(opts, rng, count, workdir):
    """(arguments, known_bad, stdout to /dev/full) for each run."""
    junk_config = os.path.join(workdir, "junk_config.json")
    with open(junk_config, "w") as f:
        f.write('{"no_such_key": 1, ')
    first = opts[0]
    specials = [["--nonsense"], [first.name] if first.kind else ["--nonsense=1"], ["--config", junk_config],
                ["--config", workdir], ["--config", os.path.join(workdir, "missing.json")], ["--dump-config"],
                ["--version"], ["-x"], ["positional"]]
    for i in range(count):
        if i < len(specials):
            yield specials[i], specials[i][0] in ("--config", "--nonsense", "-x", "positional"), False
            continue
        draw = rng.random()
        if draw < 0.15:
            args, bad = config_vector(opts, rng, os.path.join(workdir, f"config_{i}.json"))
            yield args, bad, False
            continue
        if draw < 0.22:
            yield output_vector(rng, workdir), True, False
            continue
        if draw < 0.25:
            yield [], False, True  # standard output on a full disk
            continue
        if draw < 0.32:
            args, bad = target_vector(opts, rng, workdir)
            yield args, bad, False
            continue
        args = []
        picked = rng.sample(opts, k=min(len(opts), rng.choice([1, 2, 2, 3, 3])))
        twice = rng.random() < 0.05
        for o in picked + (picked[:1] if twice else []):
            if o.kind is None:
                args.append(o.name)
            elif rng.random() < 0.5:
                args += [o.name, o.value(rng)]
            else:
                args.append(f"{o.name}={o.value(rng)}")
        if rng.random() < 0.3 and any(o.name == "--format" for o in opts) and not {"--format", "--json"} & set(
                a.split("=")[0] for a in args):
            args += ["--format", "json"]
        yield args, twice, False


NON_FINITE = re.compile(r"(?<![\w.])-?(nan|inf|infinity)(?![\w])", re.IGNORECASE)


def meaning(doc):
    """What is wrong with a JSON result's figures, or None (cycle_sim's results and sweeps)."""
    points = doc.get("points") if isinstance(doc, dict) else None
    for p in points if isinstance(points, list) else [doc]:
        if not isinstance(p, dict) or "offered" not in p or "accepted" not in p:
            continue
        offered, accepted = p["offered"], p["accepted"]
        if isinstance(offered, (int, float)) and isinstance(accepted, (int, float)):
            if accepted > offered * 1.15 + 0.03:
                return f"accepted {accepted} above offered {offered}"
        latency, hops = p.get("latency_mean"), p.get("hops_mean", p.get("hops"))
        if isinstance(latency, (int, float)) and isinstance(hops, (int, float)) and latency < hops:
            return f"mean latency {latency} below the mean hops {hops}"
        if p.get("measured_delivered") == 0 and latency is not None:
            return f"latency {latency} with no measured packet delivered"
    return None


def bad_json(text):
    """Why `text` is not clean JSON with figures that mean what they say, or None."""
    def refuse(token):
        raise ValueError(f"holds {token}")
    try:
        doc = json.loads(text, parse_constant=refuse)
    except ValueError as e:
        return str(e)
    return meaning(doc)


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
    opts = [o for o in options_of(args.tool) if o.name not in skip]
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
    special_paths(args.workdir, rng)
    precious = os.path.join(args.workdir, "precious")
    with open(precious, "w") as f:
        f.write("keep\n")
    if not os.path.lexists(os.path.join(args.workdir, "precious_link")):
        os.symlink("precious", os.path.join(args.workdir, "precious_link"))
    for vec, known_bad, full_stdout in vectors(opts, rng, args.vectors, args.workdir):
        argv = [args.tool] + base + vec
        t0 = time.monotonic()
        try:
            with open("/dev/full" if full_stdout else os.devnull, "w") as sink:
                run = subprocess.run(argv, stdout=sink if full_stdout else subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, errors="replace", timeout=args.timeout, env=env, cwd=args.workdir)
        except subprocess.TimeoutExpired:
            failures.append((argv, f"still running after {args.timeout:g} s"))
            counts["timeout"] = counts.get("timeout", 0) + 1
            continue
        took = time.monotonic() - t0
        slowest = max(slowest, (took, argv))
        counts[run.returncode] = counts.get(run.returncode, 0) + 1
        stdout = run.stdout or ""
        problem = None
        if run.returncode not in (0, 2, 3):
            problem = f"exit status {run.returncode}"
        elif "Sanitizer" in run.stderr or "runtime error:" in run.stderr:
            problem = "sanitizer report"
        elif run.returncode == 2 and "fabric:" not in run.stderr:
            problem = "status 2 without a fabric: message"
        elif known_bad and run.returncode != 2 and "--version" not in vec:
            problem = f"exit status {run.returncode} where the input is known bad (expected 2)"
        elif full_stdout and run.returncode == 0:
            problem = "exit status 0 with standard output on a full disk"
        elif run.returncode == 0 and "--dump-config" not in argv and "--version" not in argv:
            if "--json" in argv or ("--format", "json") in zip(argv, argv[1:]):
                why = bad_json(stdout)
                if why:
                    problem = f"JSON output {why}"
            elif NON_FINITE.search(stdout):
                problem = f"output holds {NON_FINITE.search(stdout).group(0)}"
        # Nothing lost: no temporary file left behind, the precious file as it was unless the run succeeded.
        left = [n for n in os.listdir(args.workdir) if re.match(r"^\..+\.[A-Za-z0-9]{6}$", n)]
        with open(precious) as f:
            kept = f.read() == "keep\n"
        if not problem and left:
            problem = f"temporary files left behind: {left[:3]}"
        if not problem and not kept and run.returncode != 0:
            problem = f"exit status {run.returncode}, but the file an output's link names was changed"
        for n in left:
            os.remove(os.path.join(args.workdir, n))
        if not kept:
            with open(precious, "w") as f:
                f.write("keep\n")
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
