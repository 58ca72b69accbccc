#!/usr/bin/env python3
"""Every option pair of a tool against the conditions its --help states (issue 56, item 6).

A tool's --help opens an option's description with where it has an effect, in one
grammar (apps/common/options.hpp, Option::full_help):

    on a torus or mesh, with --a, --b or --c VALUE, without --d or --e VALUE: what it does

"on a ..." names the topologies (cycle_sim's --topology) the option belongs to, "with"
lists options of which one must be given (at another value than its default, or at
the VALUE named), "without" options none of which may be. This script reads those
conditions from --help alone, then runs the tool with every option alone and with
every pair of options, each at a valid value other than its default, always with
--dump-config (which stops once the options are read and checked: a run is a few
milliseconds). From the help it predicts, for each vector, whether some option given
has no effect there (outside its topologies, or its condition not holding), and
requires the tool to agree: status 2 naming such an option when it must be refused,
and no such refusal when it must not. So the rule the tool enforces cannot drift from
the help it prints: an option that has no effect somewhere must say so in its help,
and an option whose help says so must be refused there.

  option_pairs.py TOOL [--base "ARGS"] [--skip --opt1,--opt2]

--base gives arguments every run starts with (their options count as given);
--skip names options left out. Exit status 1 when the tool and its help disagree.
"""
import argparse
import itertools
import re
import shlex
import subprocess
import sys

CONVENTION = {"--help", "--config", "--dump-config", "--estimate", "--version", "--output", "--work-limit",
              "--memory-limit", "--input-limit", "--preset"}


class Option:
    def __init__(self, names, spec, text):
        self.names = names
        self.name = names[0]
        self.flag = not spec
        self.default = None
        self.words = None
        self.range = None
        self.kind = None
        self.is_list = spec.endswith(" ...")
        if spec:
            m = re.match(r"^([A-Z]+)(?::(.*?))?(?:=(.*))?$", spec.removesuffix(" ...").strip())
            if m:
                self.kind, shown, self.default = m.group(1), m.group(2) or "", m.group(3)
                if w := re.match(r"^\{(.*)\}$", shown):
                    self.words = w.group(1).split(",")
                elif r := re.match(r"^in [\[(]([^,]+), ([^\])]+)[\])]$", shown):
                    self.range = (float(r.group(1)), float(r.group(2)))
                elif r := re.match(r"^>= (\S+)$", shown):
                    self.range = (float(r.group(1)), None)
        self.families, self.with_, self.without = [], [], []
        head = text.split(": ", 1)[0] if ": " in text else ""
        clauses = [c.strip() for c in re.split(r",\s*(?=(?:on a|with|without) )", head)] if head else []
        if clauses and all(re.match(r"^(on a|with|without) ", c) for c in clauses):
            for c in clauses:
                kind, rest = re.match(r"^(on a|without|with) (.*)$", c).groups()
                items = [i.strip() for i in re.split(r",\s*|\s+or\s+", rest) if i.strip()]
                if kind == "on a":
                    self.families = items
                else:
                    named = [tuple(i.split(" ", 1)) if " " in i else (i, None) for i in items]
                    (self.with_ if kind == "with" else self.without).extend(named)

    def value(self):
        """A valid value other than the default, as text (None for a flag)."""
        if self.flag:
            return None
        default = (self.default or "").strip("[]")
        if self.words:
            others = [w for w in self.words if w != default]
            return others[0] if others else self.words[0]
        if self.range:
            lo, hi = self.range
            for v in (lo + 1, lo, (lo + hi) / 2 if hi is not None else lo + 2, hi):
                if v is None or (hi is not None and v > hi):
                    continue
                text = repr(v) if self.kind == "FLOAT" else str(int(v))
                if text != default and not (self.kind == "FLOAT" and default and float(default or 0) == v):
                    return text
        return {"TEXT": "x", "FILE": "x.csv", "UINT": "2", "INT": "2", "FLOAT": "0.5",
                "OP": "allreduce=rabenseifner"}.get(self.kind or "TEXT", "2")  # OP: OP=ALG[,OP=ALG...]

    def other_value(self, named):
        """A valid value other than `named` (to give an option without being at it)."""
        if self.words:
            return next(w for w in self.words if w != named)
        if self.range:
            lo = self.range[0]
            return str(int(lo)) if str(int(lo)) != named else str(int(lo) + 1)
        return "y"


def options_of(tool):
    out = subprocess.run([tool, "--help"], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        sys.exit(f"option_pairs: {tool} --help exited {out.returncode}")
    lines = out.stdout.splitlines()
    opts = []
    for i, line in enumerate(lines):
        if not re.match(r"^  -", line):
            continue
        parts = re.split(r"\s{2,}", line.strip(), maxsplit=1)
        text = parts[1] if len(parts) > 1 else (lines[i + 1].strip() if i + 1 < len(lines) else "")
        m = re.match(r"^((?:-\w,)?--[\w-]+(?:,--[\w-]+)*)(?:\s+(.+))?$", parts[0])
        if not m:
            continue
        names = [n for n in m.group(1).split(",") if n.startswith("--")]
        if names[0] in CONVENTION:
            continue
        if "(an older spelling)" in text:  # an alias: the option it spells is walked itself
            continue
        opts.append(Option(names, m.group(2) or "", text))
    return opts


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tool")
    parser.add_argument("--base", default="")
    parser.add_argument("--skip", default="")
    args = parser.parse_args()
    base = shlex.split(args.base)
    skip = set(filter(None, args.skip.split(",")))
    every = options_of(args.tool)
    by_name = {n: o for o in every for n in o.names}
    walked = [o for o in every if o.name not in skip and o.name not in base]
    conditioned = [o for o in every if o.families or o.with_ or o.without]
    if not conditioned:
        print(f"option_pairs {args.tool}: no option states a condition")

    def argv_of(vector):
        out = list(base)
        for o, v in vector:
            out += [o.name] if o.flag else [o.name, v]
        return out

    def predict(vector):
        """The options of `vector` (and --base) that have no effect there, by the help alone."""
        given = {o.name: v for o, v in vector}
        for i in range(0, len(base)):
            if base[i].startswith("--") and base[i] in by_name:
                o = by_name[base[i]]
                given[o.name] = None if o.flag else base[i + 1]

        def value_of(name):
            o = by_name[name]
            if o.name in given:
                return given[o.name] if not o.flag else "true"
            return o.default

        def at(name, named):
            o = by_name[name]
            if named is None:
                return o.name in given and (o.flag or given[o.name] != o.default)
            return value_of(name) == named

        idle = []
        for name in given:
            o = by_name[name]
            topology = value_of("--topology") if "--topology" in by_name else None
            if o.families and topology not in o.families:
                idle.append(o.name)
                continue
            holds = not o.with_ or any(at(n, v) for n, v in o.with_)
            holds = holds and not any(at(n, v) for n, v in o.without)
            if not holds:
                idle.append(o.name)
        return idle

    vectors = [[(o, o.value())] for o in walked]
    vectors += [[(a, a.value()), (b, b.value())] for a, b in itertools.combinations(walked, 2)]
    # Each condition's own pairs, at the values it names (a default value named, or another value).
    for o in conditioned:
        for n, v in o.with_ + o.without:
            other = by_name.get(n)
            if other is None or other.name in skip:
                continue
            if v is not None:
                vectors.append([(o, o.value()), (other, v)])
                vectors.append([(o, o.value()), (other, other.other_value(v))])
    failures, runs, refused = [], 0, 0
    for vector in vectors:
        argv = [args.tool] + argv_of(vector) + ["--dump-config"]
        run = subprocess.run(argv, capture_output=True, text=True, errors="replace", timeout=60)
        runs += 1
        idle = predict(vector)
        said = re.findall(r"fabric: (--[\w-]+): (?:only |an option of the )", run.stderr)
        if idle:
            refused += 1
            if run.returncode != 2 or not said or said[0] not in idle:
                failures.append((argv, f"the help says {', '.join(idle)} has no effect here; the tool exited "
                                       f"{run.returncode}: {run.stderr.strip()[:300]}"))
        elif said:
            failures.append((argv, f"refused {said[0]} as having no effect, which its help does not say: "
                                   f"{run.stderr.strip()[:300]}"))
        elif run.returncode != 0:
            failures.append((argv, f"exit status {run.returncode}: {run.stderr.strip()[:300]}"))
    print(f"option_pairs {args.tool}: {len(walked)} options ({len(conditioned)} with a stated condition), "
          f"{runs} vectors, {refused} refused as the help predicts; {len(failures)} disagree")
    for argv, why in failures[:30]:
        print(f"FAILED: {shlex.join(argv)}\n  {why}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
