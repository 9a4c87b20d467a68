"""Checks a Chrome trace written by --profile-actions-to.

usage: check-trace.py TRACE.json EXPECTED-LOC-SUBSTRING

The file must parse as JSON with a traceEvents list; begin (B) and end (E)
events must pair up as a properly nested stack; every begin event must carry
args with an index, and some begin event must name an op whose location
contains EXPECTED-LOC-SUBSTRING. Prints a summary; exits 1 on any problem.
"""
import json
import sys


def main(path, expected_loc):
    with open(path) as f:
        trace = json.load(f)
    events = trace["traceEvents"]
    stack = []
    depth = 0
    located = 0
    for i, e in enumerate(events):
        if e["ph"] == "B":
            if "index" not in e.get("args", {}):
                sys.exit("event %d: begin event without args.index" % i)
            if expected_loc in e["args"].get("loc", "") and e["args"].get("op"):
                located += 1
            stack.append(e)
            depth = max(depth, len(stack))
        elif e["ph"] == "E":
            if not stack:
                sys.exit("event %d: end without begin" % i)
            begin = stack.pop()
            if begin["name"] != e["name"] or begin["ts"] > e["ts"]:
                sys.exit("event %d: end does not match begin %r" % (i, begin["name"]))
        else:
            sys.exit("event %d: unexpected phase %r" % (i, e["ph"]))
    if stack:
        sys.exit("%d begin events never end" % len(stack))
    if depth < 3:
        sys.exit("events nest only %d deep" % depth)
    if not located:
        sys.exit("no event names an op at %s" % expected_loc)
    print("ok: %d events, nested %d deep, %d at %s"
          % (len(events), depth, located, expected_loc))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
