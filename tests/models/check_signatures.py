"""Development aid: check that a reference .npz matches the function signatures of a model.

    /usr/bin/python3 check_signatures.py MODEL.mlir REF.npz
    /usr/bin/python3 check_signatures.py --all [DIR]

The second form runs every DIR/NAME.py (default: this directory) into a temporary
directory and checks its output against DIR/NAME.mlir.

For every public func.func of the module, the .npz must hold exactly the keys
FUNC/arg0..N-1 and FUNC/result0..M-1, with dtypes matching the element types (bf16 as
uint16 bit patterns, i1 as bool, scalars as 0-d arrays) and shapes matching the static
dimensions ('?' matches any size; sizes bound to the same function argument dimension are
not cross-checked). No other key may be present. The script must also carry a
'# tolerance: rtol=... atol=...' line.

The signature parser uses regular expressions and bracket matching that are good enough
for the models in this directory, not a general MLIR parser.
"""

import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refutil  # noqa: E402

SCALAR_TYPES = {"i1", "i8", "i16", "i32", "i64", "f32", "f64"}
TOLERANCE_RE = re.compile(
    r"^# tolerance: rtol=(\S+) atol=(\S+)( ulp=\d+)?$", re.MULTILINE)


def _strip_comments(text):
    return re.sub(r"//[^\n]*", "", text)


def _matching(text, i):
    """Index just past the bracket closing the one at text[i] ('->' is not a bracket)."""
    pairs = {"(": ")", "<": ">", "[": "]", "{": "}"}
    stack = []
    while i < len(text):
        c = text[i]
        if c in pairs:
            stack.append(pairs[c])
        elif c in pairs.values() and not (c == ">" and i > 0 and text[i - 1] == "-"):
            if not stack or stack[-1] != c:
                raise ValueError("unbalanced brackets near %r" % text[max(0, i - 20):i + 20])
            stack.pop()
            if not stack:
                return i + 1
        i += 1
    raise ValueError("unterminated bracket")


def _split_top(s):
    """Split s on commas that are not nested in brackets."""
    parts, depth, cur = [], 0, []
    i = 0
    while i < len(s):
        c = s[i]
        if c in "(<[{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == ">" and not (i > 0 and s[i - 1] == "-"):
            depth -= 1
        if c == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    if "".join(cur).strip():
        parts.append("".join(cur))
    return [p.strip() for p in parts]


def parse_type(t):
    """'tensor<4x?xf32>' -> ('tensor', [4, None], 'f32'); 'f32' -> ('scalar', [], 'f32')."""
    t = t.strip()
    m = re.match(r"^tensor<(.*)>$", t)
    if m:
        body = m.group(1).split(",")[0].strip()  # drop an encoding, if any
        parts = body.split("x")
        elem = parts[-1]
        dims = [None if d == "?" else int(d) for d in parts[:-1]]
        return ("tensor", dims, elem)
    if t in SCALAR_TYPES or re.match(r"^(i\d+|f16|bf16|index)$", t):
        return ("scalar", [], t)
    raise ValueError("unsupported type %r" % t)


def parse_functions(text):
    """Public functions of a module: [(name, [argtypes], [resulttypes])]."""
    text = _strip_comments(text)
    funcs = []
    for m in re.finditer(r"func\.func\s+(?:(public|private|nested)\s+)?@([\w$.]+)\s*\(",
                         text):
        visibility, name = m.group(1), m.group(2)
        open_paren = m.end() - 1
        close = _matching(text, open_paren)
        args_text = text[open_paren + 1:close - 1]
        rest = text[close:]
        results = []
        rm = re.match(r"\s*->\s*", rest)
        if rm:
            rest2 = rest[rm.end():]
            if rest2.startswith("("):
                rclose = _matching(rest2, 0)
                results = _split_top(rest2[1:rclose - 1])
            else:
                tm = re.match(r"(tensor<[^{]*?>|[\w]+)(?=\s*(\{|attributes|$))", rest2)
                if not tm:
                    raise ValueError("cannot parse results of %s" % name)
                results = [tm.group(1)]
        if visibility == "private":
            continue
        args = []
        for a in _split_top(args_text):
            am = re.match(r"^%[\w$.]+\s*:\s*(.*?)\s*(\{.*\})?$", a, re.DOTALL)
            if not am:
                raise ValueError("cannot parse argument %r of %s" % (a, name))
            args.append(am.group(1))
        results = [re.sub(r"\s*\{.*\}$", "", r, flags=re.DOTALL) for r in results]
        funcs.append((name, [parse_type(a) for a in args], [parse_type(r) for r in results]))
    return funcs


def check(mlir_path, npz_path, script_path=None):
    """Return a list of error strings (empty when everything matches)."""
    errors = []
    with open(mlir_path) as f:
        funcs = parse_functions(f.read())
    if not funcs:
        errors.append("%s: no public function" % mlir_path)
    data = np.load(npz_path)
    expected_keys = set()
    for name, args, results in funcs:
        for kind, types in (("arg", args), ("result", results)):
            for i, (cls, dims, elem) in enumerate(types):
                key = "%s/%s%d" % (name, kind, i)
                expected_keys.add(key)
                if kind == "arg" and cls == "scalar" and elem not in SCALAR_TYPES:
                    errors.append("%s: scalar type %s is outside the contract" % (key, elem))
                if kind == "result" and cls != "tensor":
                    errors.append("%s: results must be ranked tensors" % key)
                if key not in data.files:
                    errors.append("%s: missing" % key)
                    continue
                a = data[key]
                want = refutil.NUMPY_DTYPE.get(elem)
                if want is None:
                    errors.append("%s: element type %s is outside the contract" % (key, elem))
                elif a.dtype != want:
                    errors.append("%s: dtype %s, expected %s (%s)" % (key, a.dtype, want, elem))
                if a.ndim != len(dims):
                    errors.append("%s: rank %d, expected %d" % (key, a.ndim, len(dims)))
                else:
                    for d, (got, exp) in enumerate(zip(a.shape, dims)):
                        if exp is not None and got != exp:
                            errors.append("%s: dim %d is %d, expected %d" % (key, d, got, exp))
    extra = set(data.files) - expected_keys
    for k in sorted(extra):
        errors.append("%s: unexpected key" % k)
    if script_path is not None:
        with open(script_path) as f:
            if not TOLERANCE_RE.search(f.read()):
                errors.append("%s: no '# tolerance: rtol=... atol=...' line" % script_path)
    return errors


def check_all(directory):
    names = sorted(n[:-5] for n in os.listdir(directory) if n.endswith(".mlir"))
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in names:
            script = os.path.join(directory, n + ".py")
            if not os.path.exists(script):
                print("FAIL %s: no reference script" % n)
                failed += 1
                continue
            out = os.path.join(tmp, n + ".npz")
            proc = subprocess.run([sys.executable, script, out],
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                print("FAIL %s: script failed\n%s" % (n, proc.stderr))
                failed += 1
                continue
            errs = check(os.path.join(directory, n + ".mlir"), out, script)
            if errs:
                failed += 1
                print("FAIL %s" % n)
                for e in errs:
                    print("  " + e)
            else:
                nfuncs = len(parse_functions(open(os.path.join(directory, n + ".mlir")).read()))
                print("ok   %s (%d functions)" % (n, nfuncs))
    return failed


def main(argv):
    if len(argv) >= 2 and argv[1] == "--all":
        directory = argv[2] if len(argv) > 2 else os.path.dirname(os.path.abspath(__file__))
        return 1 if check_all(directory) else 0
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    errs = check(argv[1], argv[2])
    for e in errs:
        print(e)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
