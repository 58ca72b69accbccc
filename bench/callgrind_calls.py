#!/usr/bin/env python3
"""The cycle kernel's work per flit move, from a callgrind file of bench/kernel_runs.

    bench/callgrind_calls.py CALLGRIND_FILE FLIT_MOVES [TOP]

For every function called at least once a thousand moves (calls are exact in
callgrind, inlined code counts in its caller): calls per flit move, instructions
per call (inclusive: with what it calls) and their product per flit move. Read
with bench/kernel_speed calls, which runs callgrind first if needed.
"""
import collections
import re
import sys


def read(path):
    names, calls, inclusive = {}, collections.Counter(), collections.Counter()
    callee, after_calls = None, False
    with open(path) as f:
        for line in f:
            m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
            if m:
                kind, ident, name = m.groups()
                if name:
                    names[ident] = name.strip()
                if kind == "cfn":
                    callee = ident
                continue
            m = re.match(r"calls=(\d+)", line)
            if m and callee:
                calls[callee] += int(m.group(1))
                after_calls = True
                continue
            if after_calls:  # the line after calls= holds the call's inclusive cost
                parts = line.split()
                if len(parts) >= 2:
                    inclusive[callee] += int(parts[1])
                after_calls = False
    return names, calls, inclusive


def short(name):
    lambda_of = " (its lambda)" if "{lambda" in name else ""
    name = name.replace("(anonymous namespace)::", "").replace("fabric::cycle::", "").replace("fabric::", "")
    for _ in range(6):
        name = re.sub(r"<[^<>]*>", "", name)
    return re.sub(r"\(.*", "", name)[-70:] + lambda_of


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    names, calls, inclusive = read(sys.argv[1])
    moves = int(sys.argv[2])
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    print(f"{'calls/move':>10} {'instr/call':>10} {'instr/move':>10}  function")
    for ident, n in calls.most_common():
        if n * 1000 < moves or top == 0:
            continue
        top -= 1
        per_call = inclusive[ident] / n
        print(f"{n / moves:10.3f} {per_call:10.1f} {per_call * n / moves:10.1f}  {short(names.get(ident, ident))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
