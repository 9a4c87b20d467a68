"""Random tensor programs and their numpy results, for tests/random/check.py.

Each generator takes a case number (the caller seeds `random` and
`numpy.random` first) and returns a dict: `name`, `src` (an MLIR module with
one function @f), `args` (numpy arrays, one per argument), `want` (the
results, computed here with numpy, never by the compiler), `rtol`, `atol`.
The programs are what the compiler's tiling and vectorization take apart:
odd and prime sizes (partial tiles), broadcasts and transposed reads,
dynamic dims, constants, reductions along any axes, data movement, integer
semantics (division, shifts, unsigned ops), casts, TOSA chains, op graphs
with matmuls, loops and branches carrying tensors, convolutions and pooling.
"""
import math
import random

import numpy as np

# Sizes of hundreds of thousands to millions of elements, where the parallel
# loops run on threads (check.py --big).
BIG = False

NP = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "i8": np.int8,
      "i16": np.int16, "i32": np.int32, "i64": np.int64}
SIZES = [1, 2, 3, 5, 7, 8, 13, 16, 17, 31, 32, 33, 64, 100, 127, 128, 129, 255, 1000]


def ttype(shape, et, dyn=()):
    dims = ["?" if i in dyn else str(d) for i, d in enumerate(shape)]
    return "tensor<%s%s>" % ("".join(x + "x" for x in dims), et)


BIGSIZES = SIZES + [257, 511, 1021, 1024, 2048, 3001, 4096]


def rand_shape(rank, maxelems=1 << 18):
    if BIG:
        for _ in range(10000):
            s = [random.choice(BIGSIZES) for _ in range(rank)]
            if (1 << 17) <= int(np.prod(s)) <= (1 << 22):
                return s
        return [random.choice([1021, 1024, 3001]) * 64]
    while True:
        s = [random.choice(SIZES) for _ in range(rank)]
        if int(np.prod(s)) <= maxelems:
            return s


def rand_array(shape, et, lo=-1.0, hi=1.0):
    if et.startswith("f"):
        return np.random.uniform(lo, hi, shape).astype(NP[et])
    info = np.iinfo(NP[et])
    return np.random.randint(max(info.min, -100), min(info.max, 100) + 1, shape).astype(NP[et])


def dmap(rank, dims):
    ds = ",".join("d%d" % i for i in range(rank))
    return "affine_map<(%s) -> (%s)>" % (ds, ", ".join("d%d" % i for i in dims))


def empty_for(name, shape, et, dyn, src_of_dim):
    """tensor.empty with dynamic sizes read by tensor.dim from (value, axis)."""
    lines, vals = [], []
    for i in range(len(shape)):
        if i in dyn:
            v, ax = src_of_dim[i]
            lines.append("  %%c%s_%d = arith.constant %d : index" % (name, i, ax))
            lines.append("  %%d%s_%d = tensor.dim %s, %%c%s_%d : %s" % (name, i, v[0], name, i, v[1]))
            vals.append("%%d%s_%d" % (name, i))
    lines.append("  %%%s = tensor.empty(%s) : %s" % (name, ", ".join(vals), ttype(shape, et, dyn)))
    return lines


# ---------------------------------------------------------------- elementwise
FBIN = {"addf": np.add, "subf": np.subtract, "mulf": np.multiply,
        "maximumf": np.maximum, "minimumf": np.minimum}
IBIN = {"addi": np.add, "subi": np.subtract, "muli": np.multiply,
        "maxsi": np.maximum, "minsi": np.minimum, "andi": np.bitwise_and,
        "ori": np.bitwise_or, "xori": np.bitwise_xor}
# Unary functions; the ones without a numpy function are spelled out below.
FUN = {"math.exp": np.exp, "math.tanh": np.tanh, "math.absf": np.abs,
       "arith.negf": np.negative, "math.sin": np.sin, "math.log1p_abs": None,
       "math.erf": None}


def gen_elementwise(idx):
    rank = random.randint(1, 4)
    shape = rand_shape(rank)
    et = random.choice(["f32", "f32", "f32", "f64", "i32", "i8", "i16", "i64", "f16", "f16"])
    isf = et.startswith("f")
    nin = random.randint(1, 3)
    dynamic = random.random() < 0.35
    ins = []  # (dims of iteration space it reads, transposed perm)
    for k in range(nin):
        if k == 0:
            dims = list(range(rank))
            if rank > 1 and random.random() < 0.4:
                random.shuffle(dims)  # a transposed read
        else:
            dims = sorted(random.sample(range(rank), random.randint(0, rank)))
            if len(dims) > 1 and random.random() < 0.3:
                random.shuffle(dims)
        ins.append(dims)
    arrays, types, dyns = [], [], []
    for dims in ins:
        s = [shape[d] for d in dims]
        arrays.append(rand_array(s, et, 0.05 if random.random() < 0.3 else -1.0, 1.0))
        dy = set(i for i in range(len(dims)) if dynamic and random.random() < 0.6)
        dyns.append(dy)
        types.append(ttype(s, et, dy))
    consts = [k for k in range(1, nin) if random.random() < 0.4 and not dyns[k]]
    argk = [k for k in range(nin) if k not in consts]
    splats = [k for k in consts if arrays[k].size and random.random() < 0.3]
    for k in splats:
        arrays[k][...] = arrays[k].flat[0]
    # Output dims: dynamic where some input provides that dim (input 0 has all).
    outdyn = set(i for i in range(rank) if dynamic and random.random() < 0.6)
    src_of = {}
    for i in outdyn:
        j = ins[0].index(i)
        src_of[i] = (("%a0", types[0]), j)
    outt = ttype(shape, et, outdyn)
    # Body: a chain of ops.
    env = ["%%x%d" % k for k in range(nin)]
    nops = random.randint(1, 5)
    steps = []
    for o in range(nops):
        if isf and random.random() < 0.3:
            fn = random.choice(list(FUN))
            steps.append(("un", fn, random.randrange(nin + o)))
        else:
            op = random.choice(list(FBIN if isf else IBIN))
            steps.append(("bin", op, random.randrange(nin + o), random.randrange(nin + o)))
    # numpy reference
    bcast = []
    for k, dims in enumerate(ins):
        a = arrays[k]
        # a's axes are dims (possibly permuted); bring to iteration order.
        order = sorted(range(len(dims)), key=lambda t: dims[t])
        a2 = np.transpose(a, order) if len(dims) else a
        full = [1] * rank
        for d in dims:
            full[d] = shape[d]
        bcast.append(np.broadcast_to(a2.reshape(full), shape))
    vals = list(bcast)
    lines = []
    for o, st in enumerate(steps):
        res = "%%v%d" % o
        env.append(res)
        if st[0] == "un":
            fn, a = st[1], st[2]
            x = vals[a]
            if fn == "math.log1p_abs":
                lines.append("    %%t%d = math.absf %s : %s" % (o, env[a], et))
                lines.append("    %s = math.log1p %%t%d : %s" % (res, o, et))
                v = np.log1p(np.abs(x))
            elif fn == "math.erf":
                lines.append("    %s = math.erf %s : %s" % (res, env[a], et))
                v = np.vectorize(math.erf)(x.astype(np.float64)).astype(x.dtype)
            elif fn == "math.exp":
                # keep magnitudes bounded
                lines.append("    %%t%d = math.tanh %s : %s" % (o, env[a], et))
                lines.append("    %s = math.exp %%t%d : %s" % (res, o, et))
                v = np.exp(np.tanh(x))
            else:
                lines.append("    %s = %s %s : %s" % (res, fn, env[a], et))
                v = FUN[fn](x)
        else:
            op, a, b = st[1], st[2], st[3]
            lines.append("    %s = arith.%s %s, %s : %s" % (res, op, env[a], env[b], et))
            with np.errstate(all="ignore"):
                v = (FBIN if isf else IBIN)[op](vals[a], vals[b])
            if isf:
                # keep values bounded to avoid overflow differences
                lines.append("    %%w%d = math.tanh %s : %s" % (o, res, et))
                v = np.tanh(v)
                res2 = "%%w%d" % o
                env[-1] = res2
                vals.append(v.astype(NP[et]))
                continue
        vals.append(np.asarray(v).astype(NP[et]))
    want = vals[-1]
    maps = [dmap(rank, d) for d in ins] + [dmap(rank, list(range(rank)))]
    # Some inputs are constants of the module instead of arguments.
    src = ["func.func @f(%s) -> %s {" % (", ".join("%%a%d: %s" % (k, types[k]) for k in argk), outt)]
    for k in consts:
        arr = arrays[k]
        if k in splats:
            src.append("  %%a%d = arith.constant dense<%s> : %s" % (k, repr(arr.flat[0].item()) if isf else int(arr.flat[0]), types[k]))
        else:
            src.append('  %%a%d = arith.constant dense<"0x%s"> : %s' % (k, arr.tobytes().hex().upper(), types[k]))
    src += empty_for("e", shape, et, outdyn, src_of)
    src.append("  %%r = linalg.generic {indexing_maps = [%s], iterator_types = [%s]} ins(%s : %s) outs(%%e : %s) {"
               % (", ".join(maps), ", ".join(['"parallel"'] * rank),
                  ", ".join("%%a%d" % k for k in range(nin)), ", ".join(types), outt))
    src.append("  ^bb0(%s, %%out: %s):" % (", ".join("%%x%d: %s" % (k, et) for k in range(nin)), et))
    src += lines
    src.append("    linalg.yield %s : %s" % (env[-1], et))
    src.append("  } -> %s" % outt)
    src.append("  return %%r : %s" % outt)
    src.append("}")
    tol = {"f32": 2e-5, "f16": 2e-2, "f64": 1e-12}.get(et, 0)
    return dict(name="ew%d" % idx, src="\n".join(src) + "\n", args=[arrays[k] for k in argk], want=[want],
                rtol=tol, atol=tol)


# ----------------------------------------------------------------- reductions
def gen_reduction(idx):
    rank = random.randint(1, 4)
    shape = rand_shape(rank, 1 << 19)
    et = random.choice(["f32", "f32", "f64", "i32", "i64", "i16"])
    isf = et.startswith("f")
    red = sorted(random.sample(range(rank), random.randint(1, rank)))
    kind = random.choice(["add", "max", "min"] + (["mul"] if not isf else []))
    dynamic = random.random() < 0.35
    dy = set(i for i in range(rank) if dynamic and random.random() < 0.6)
    a = rand_array(shape, et)
    if kind == "mul":
        a = np.random.choice(np.array([-1, 1, 1, 1], NP[et]), shape)
    keep = [d for d in range(rank) if d not in red]
    oshape = [shape[d] for d in keep]
    odyn = set(i for i, d in enumerate(keep) if d in dy)
    at = ttype(shape, et, dy)
    ot = ttype(oshape, et, odyn)
    op = {"add": "addf" if isf else "addi", "max": "maximumf" if isf else "maxsi",
          "min": "minimumf" if isf else "minsi", "mul": "muli"}[kind]
    init = {"add": "0", "mul": "1", "max": "-inf" if isf else str(np.iinfo(NP[et]).min),
            "min": "inf" if isf else str(np.iinfo(NP[et]).max)}[kind]
    if isf and init in ("-inf", "inf"):
        init = "0x%s" % ({"f32": "FF800000", "f64": "FFF0000000000000"}[et] if init == "-inf"
                          else {"f32": "7F800000", "f64": "7FF0000000000000"}[et])
    elif isf:
        init = "0.0"
    src = ["func.func @f(%%a0: %s) -> %s {" % (at, ot)]
    src.append("  %%init = arith.constant %s : %s" % (init, et))
    src += empty_for("e", oshape, et, odyn, {i: (("%a0", at), keep[i]) for i in odyn})
    src.append("  %%z = linalg.fill ins(%%init : %s) outs(%%e : %s) -> %s" % (et, ot, ot))
    src.append("  %%r = linalg.reduce ins(%%a0 : %s) outs(%%z : %s) dimensions = [%s]"
               % (at, ot, ", ".join(map(str, red))))
    src.append("    (%%x: %s, %%acc: %s) {" % (et, et))
    src.append("      %%s = arith.%s %%x, %%acc : %s" % (op, et))
    src.append("      linalg.yield %s : %s" % ("%s", et))
    src.append("    }")
    src.append("  return %%r : %s" % ot)
    src.append("}")
    f = {"add": np.sum, "max": np.max, "min": np.min, "mul": np.prod}[kind]
    want = f(a.astype(np.float64) if isf else a, axis=tuple(red)).astype(NP[et])
    n = int(np.prod([shape[d] for d in red]))
    tol = (2e-6 * np.sqrt(n) + 1e-6) if et == "f32" else 1e-10
    atol = tol * (np.sqrt(n) if kind == "add" else 1)
    return dict(name="red%d" % idx, src="\n".join(src) + "\n", args=[a],
                want=[np.asarray(want)], rtol=tol, atol=atol)


# -------------------------------------------------------------- data movement
def gen_datamove(idx):
    rank = random.randint(1, 4)
    shape = rand_shape(rank, 1 << 16)
    et = random.choice(["f32", "f32", "i32", "i8", "f64", "i64", "f16"])
    a = rand_array(shape, et)
    args, types = [a], [ttype(shape, et)]
    lines = []
    cur, cur_np, cnt = "%a0", a, [0]

    def tt(x):
        return ttype(list(x.shape), et)

    def fresh():
        cnt[0] += 1
        return "%%v%d" % cnt[0]

    for step in range(random.randint(1, 4)):
        r = cur_np.ndim
        kinds = ["transpose", "pad", "slice", "insert", "concat", "broadcast", "add"]
        if r >= 2:
            kinds.append("collapse")
        if r <= 3 and any(d % 2 == 0 and d > 1 for d in cur_np.shape):
            kinds.append("expand")
        kind = random.choice(kinds)
        v = fresh()
        src_t = tt(cur_np)
        if kind == "transpose":
            perm = list(range(r)); random.shuffle(perm)
            out = np.transpose(cur_np, perm)
            lines.append("  %se = tensor.empty() : %s" % (v, tt(out)))
            lines.append("  %s = linalg.transpose ins(%s : %s) outs(%se : %s) permutation = [%s]"
                         % (v, cur, src_t, v, tt(out), ", ".join(map(str, perm))))
        elif kind == "pad":
            lo = [random.randint(0, 3) for _ in range(r)]
            hi = [random.randint(0, 3) for _ in range(r)]
            if int(np.prod([s + l + h for s, l, h in zip(cur_np.shape, lo, hi)])) > 1 << 18:
                continue
            val = 2 if not et.startswith("f") else 1.5
            out = np.pad(cur_np, list(zip(lo, hi)), constant_values=val)
            cst = ("%d" % val) if not et.startswith("f") else "1.5"
            lines.append("  %sc = arith.constant %s : %s" % (v, cst, et))
            lines.append("  %s = tensor.pad %s low[%s] high[%s] {\n  ^bb0(%s):\n    tensor.yield %sc : %s\n  } : %s to %s"
                         % (v, cur, ", ".join(map(str, lo)), ", ".join(map(str, hi)),
                            ", ".join("%%i%d: index" % i for i in range(r)), v, et, src_t, tt(out)))
        elif kind == "slice":
            offs, sizes, strides = [], [], []
            for d in cur_np.shape:
                st = random.choice([1, 1, 1, 2, 3])
                sz = random.randint(1, max(1, (d - 1) // st + 1))
                maxoff = d - ((sz - 1) * st + 1)
                off = random.randint(0, maxoff)
                offs.append(off); sizes.append(sz); strides.append(st)
            out = cur_np[tuple(slice(o, o + (s - 1) * t + 1, t) for o, s, t in zip(offs, sizes, strides))]
            lines.append("  %s = tensor.extract_slice %s[%s] [%s] [%s] : %s to %s"
                         % (v, cur, ", ".join(map(str, offs)), ", ".join(map(str, sizes)),
                            ", ".join(map(str, strides)), src_t, tt(out)))
        elif kind == "insert":
            big = [d + random.randint(0, 4) for d in cur_np.shape]
            if int(np.prod(big)) > 1 << 18:
                continue
            offs = [random.randint(0, b - d) for b, d in zip(big, cur_np.shape)]
            out = np.full(big, 3, dtype=cur_np.dtype)
            out[tuple(slice(o, o + d) for o, d in zip(offs, cur_np.shape))] = cur_np
            cst = "3" if not et.startswith("f") else "3.0"
            lines.append("  %sc = arith.constant %s : %s" % (v, cst, et))
            lines.append("  %se = tensor.empty() : %s" % (v, tt(out)))
            lines.append("  %sf = linalg.fill ins(%sc : %s) outs(%se : %s) -> %s" % (v, v, et, v, tt(out), tt(out)))
            lines.append("  %s = tensor.insert_slice %s into %sf[%s] [%s] [%s] : %s into %s"
                         % (v, cur, v, ", ".join(map(str, offs)), ", ".join(map(str, cur_np.shape)),
                            ", ".join(["1"] * r), src_t, tt(out)))
        elif kind == "concat":
            ax = random.randrange(r)
            oshape = list(cur_np.shape); oshape[ax] = random.choice([1, 2, 5, 16, 33])
            b = rand_array(oshape, et)
            args.append(b); types.append(ttype(oshape, et))
            bn = "%%a%d" % (len(args) - 1)
            first = random.random() < 0.5
            out = np.concatenate([cur_np, b] if first else [b, cur_np], axis=ax)
            ops = (cur, bn) if first else (bn, cur)
            ts = (src_t, ttype(oshape, et)) if first else (ttype(oshape, et), src_t)
            lines.append("  %s = tensor.concat dim(%d) %s, %s : (%s, %s) -> %s"
                         % (v, ax, ops[0], ops[1], ts[0], ts[1], tt(out)))
        elif kind == "broadcast":
            if r >= 4:
                continue
            pos = random.randint(0, r)
            n = random.choice([1, 2, 3, 8])
            if cur_np.size * n > 1 << 18:
                continue
            out = np.broadcast_to(np.expand_dims(cur_np, pos), cur_np.shape[:pos] + (n,) + cur_np.shape[pos:]).copy()
            lines.append("  %se = tensor.empty() : %s" % (v, tt(out)))
            lines.append("  %s = linalg.broadcast ins(%s : %s) outs(%se : %s) dimensions = [%d]"
                         % (v, cur, src_t, v, tt(out), pos))
        elif kind == "add":
            b = rand_array(cur_np.shape, et)
            args.append(b); types.append(src_t)
            bn = "%%a%d" % (len(args) - 1)
            out = (cur_np + b).astype(cur_np.dtype)
            op = "addf" if et.startswith("f") else "addi"
            lines.append("  %s = arith.%s %s, %s : %s" % (v, op, cur, bn, src_t))
        elif kind == "collapse":
            i = random.randrange(r - 1)
            groups = [[j] for j in range(i)] + [[i, i + 1]] + [[j] for j in range(i + 2, r)]
            out = cur_np.reshape(cur_np.shape[:i] + (cur_np.shape[i] * cur_np.shape[i + 1],) + cur_np.shape[i + 2:])
            lines.append("  %s = tensor.collapse_shape %s [%s] : %s into %s"
                         % (v, cur, ", ".join("[%s]" % ", ".join(map(str, g)) for g in groups), src_t, tt(out)))
        elif kind == "expand":
            cands = [j for j, d in enumerate(cur_np.shape) if d % 2 == 0 and d > 1]
            i = random.choice(cands)
            d = cur_np.shape[i]
            newshape = cur_np.shape[:i] + (2, d // 2) + cur_np.shape[i + 1:]
            out = cur_np.reshape(newshape)
            groups, k = [], 0
            for j in range(r):
                if j == i:
                    groups.append([k, k + 1]); k += 2
                else:
                    groups.append([k]); k += 1
            lines.append("  %s = tensor.expand_shape %s [%s] output_shape [%s] : %s into %s"
                         % (v, cur, ", ".join("[%s]" % ", ".join(map(str, g)) for g in groups),
                            ", ".join(map(str, newshape)), src_t, tt(out)))
        cur, cur_np = v, out
    if cur == "%a0":
        return gen_datamove(idx + 100000)
    src = ["func.func @f(%s) -> %s {" % (", ".join("%%a%d: %s" % (k, t) for k, t in enumerate(types)), tt(cur_np))]
    src += lines
    src.append("  return %s : %s" % (cur, tt(cur_np)))
    src.append("}")
    return dict(name="dm%d" % idx, src="\n".join(src) + "\n", args=args, want=[cur_np],
                rtol=1e-3 if et == "f16" else 0, atol=0)


# ------------------------------------------------------- integer arithmetic
UNS = {"i8": np.uint8, "i16": np.uint16, "i32": np.uint32, "i64": np.uint64}


def gen_intops(idx):
    rank = random.randint(1, 3)
    shape = rand_shape(rank, 1 << 16)
    et = random.choice(["i8", "i16", "i32", "i64"])
    dt, ut = NP[et], UNS[et]
    bw = np.iinfo(dt).bits
    info = np.iinfo(dt)
    op = random.choice(["divsi", "remsi", "divui", "remui", "floordivsi", "ceildivsi",
                        "shli", "shrsi", "shrui", "maxui", "minui", "cmpi_ult", "cmpi_sge",
                        "muli", "addi"])
    a = np.random.randint(info.min + 1, info.max, shape, dtype=np.int64).astype(dt)
    if random.random() < 0.5:
        a = np.random.randint(-300, 300, shape).astype(dt)
    if op.startswith("sh"):
        b = np.random.randint(0, bw, shape).astype(dt)
    else:
        b = np.random.randint(info.min + 1, info.max, shape, dtype=np.int64).astype(dt)
        if random.random() < 0.5:
            b = np.random.randint(-20, 20, shape).astype(dt)
        b[b == 0] = 3
        if op in ("divsi", "remsi", "floordivsi", "ceildivsi"):
            b[b == -1] = 5  # avoid MIN / -1
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    au, bu = a.view(ut), b.view(ut)
    with np.errstate(all="ignore"):
        if op == "divsi":
            want = (np.sign(a64) * np.sign(b64) * (np.abs(a64) // np.abs(b64))).astype(dt)
        elif op == "remsi":
            q = np.sign(a64) * np.sign(b64) * (np.abs(a64) // np.abs(b64))
            want = (a64 - b64 * q).astype(dt)
        elif op == "divui":
            want = (au // bu).view(dt)
        elif op == "remui":
            want = (au % bu).view(dt)
        elif op == "floordivsi":
            want = np.floor_divide(a64, b64).astype(dt)
        elif op == "ceildivsi":
            want = (-np.floor_divide(-a64, b64)).astype(dt)
        elif op == "shli":
            want = (au << bu).view(dt)
        elif op == "shrsi":
            want = (a >> b).astype(dt)
        elif op == "shrui":
            want = (au >> bu).view(dt)
        elif op == "maxui":
            want = np.maximum(au, bu).view(dt)
        elif op == "minui":
            want = np.minimum(au, bu).view(dt)
        elif op == "cmpi_ult":
            want = au < bu
        elif op == "cmpi_sge":
            want = a >= b
        elif op == "muli":
            want = (au * bu).view(dt)
        elif op == "addi":
            want = (au + bu).view(dt)
    t = ttype(shape, et)
    ot = ttype(shape, "i1") if op.startswith("cmpi") else t
    if op.startswith("cmpi"):
        body = "arith.cmpi %s, %%x, %%y : %s" % (op[5:], et)
        oet = "i1"
    else:
        body = "arith.%s %%x, %%y : %s" % (op, et)
        oet = et
    # as a linalg.generic so that the tiled path sees it, or as a plain op on tensors
    if random.random() < 0.5 and not op.startswith("cmpi"):
        src = "func.func @f(%%a0: %s, %%a1: %s) -> %s {\n  %%r = arith.%s %%a0, %%a1 : %s\n  return %%r : %s\n}\n" % (t, t, t, op, t, t)
    else:
        m = dmap(rank, list(range(rank)))
        src = ("func.func @f(%%a0: %s, %%a1: %s) -> %s {\n  %%e = tensor.empty() : %s\n"
               "  %%r = linalg.generic {indexing_maps = [%s, %s, %s], iterator_types = [%s]} ins(%%a0, %%a1 : %s, %s) outs(%%e : %s) {\n"
               "  ^bb0(%%x: %s, %%y: %s, %%o: %s):\n    %%z = %s\n    linalg.yield %%z : %s\n  } -> %s\n  return %%r : %s\n}\n"
               % (t, t, ot, ot, m, m, m, ", ".join(['"parallel"'] * rank), t, t, ot, et, et, oet, body, oet, ot, ot))
    return dict(name="int%d" % idx, src=src, args=[a, b], want=[np.asarray(want)], rtol=0, atol=0)


# -------------------------------------------------------------------- casts
def bf16_round(x32):
    u = x32.astype(np.float32).view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return r


def gen_casts(idx):
    rank = random.randint(1, 3)
    shape = rand_shape(rank, 1 << 16)
    kind = random.choice(["sitofp", "uitofp", "fptosi", "fptoui", "extf16", "truncf16", "truncbf16",
                          "extbf16", "extsi", "extui", "trunci", "f64tof32", "f32tof64"])
    if kind in ("sitofp", "uitofp"):
        it = random.choice(["i8", "i16", "i32", "i64"]); ft = random.choice(["f32", "f64"])
        a = np.random.randint(np.iinfo(NP[it]).min, np.iinfo(NP[it]).max, shape, dtype=np.int64).astype(NP[it])
        src_t, dst_t = it, ft
        # numpy rounds each integer to the nearest float, as the op does
        want = (a if kind == "sitofp" else a.view(UNS[it])).astype(NP[ft])
    elif kind in ("fptosi", "fptoui"):
        it = random.choice(["i8", "i16", "i32", "i64"]); ft = random.choice(["f32", "f64"])
        lo, hi = (np.iinfo(NP[it]).min, np.iinfo(NP[it]).max) if kind == "fptosi" else (0, np.iinfo(UNS[it]).max)
        lo, hi = max(lo, -1e6), min(hi, 1e6)
        a = np.random.uniform(lo, hi, shape).astype(NP[ft])
        a = np.clip(a, lo, hi).astype(NP[ft])
        src_t, dst_t = ft, it
        want = np.trunc(a.astype(np.float64)).astype(np.int64)
        want = (want.astype(NP[it]) if kind == "fptosi" else want.astype(UNS[it]).view(NP[it]))
    elif kind == "extf16":
        a = np.random.uniform(-100, 100, shape).astype(np.float16)
        src_t, dst_t = "f16", random.choice(["f32", "f64"]); want = a.astype(NP[dst_t])
    elif kind == "truncf16":
        ft = random.choice(["f32", "f64"])
        a = np.random.uniform(-70000, 70000, shape).astype(NP[ft])
        if random.random() < 0.5:
            a = np.random.uniform(-1e-4, 1e-4, shape).astype(NP[ft])  # subnormals
        src_t, dst_t = ft, "f16"
        with np.errstate(all="ignore"):
            want = a.astype(np.float16)  # numpy: round to nearest even, overflow to inf
    elif kind == "truncbf16":
        a = np.random.uniform(-1e3, 1e3, shape).astype(np.float32)
        src_t, dst_t = "f32", "bf16"
        want = bf16_round(a)
    elif kind == "extbf16":
        bits = bf16_round(np.random.uniform(-1e3, 1e3, shape).astype(np.float32))
        a = bits
        src_t, dst_t = "bf16", "f32"
        want = (bits.astype(np.uint32) << 16).view(np.float32)
    elif kind in ("extsi", "extui"):
        it = random.choice(["i8", "i16", "i32"])
        wt = random.choice([w for w in ["i16", "i32", "i64"] if np.iinfo(NP[w]).bits > np.iinfo(NP[it]).bits])
        a = np.random.randint(np.iinfo(NP[it]).min, np.iinfo(NP[it]).max, shape, dtype=np.int64).astype(NP[it])
        src_t, dst_t = it, wt
        want = a.astype(NP[wt]) if kind == "extsi" else a.view(UNS[it]).astype(NP[wt])
    elif kind == "trunci":
        it = random.choice(["i16", "i32", "i64"])
        nt = random.choice([w for w in ["i8", "i16", "i32"] if np.iinfo(NP[w]).bits < np.iinfo(NP[it]).bits])
        a = np.random.randint(np.iinfo(NP[it]).min, np.iinfo(NP[it]).max, shape, dtype=np.int64).astype(NP[it])
        src_t, dst_t = it, nt
        want = a.view(UNS[it]).astype(UNS[nt]).view(NP[nt])
    elif kind == "f64tof32":
        a = np.random.uniform(-1e5, 1e5, shape); src_t, dst_t = "f64", "f32"; want = a.astype(np.float32)
    else:
        a = np.random.uniform(-1e5, 1e5, shape).astype(np.float32); src_t, dst_t = "f32", "f64"; want = a.astype(np.float64)
    opname = {"sitofp": "sitofp", "uitofp": "uitofp", "fptosi": "fptosi", "fptoui": "fptoui",
              "extf16": "extf", "truncf16": "truncf", "truncbf16": "truncf", "extbf16": "extf",
              "extsi": "extsi", "extui": "extui", "trunci": "trunci", "f64tof32": "truncf",
              "f32tof64": "extf"}[kind]
    t, ot = ttype(shape, src_t), ttype(shape, dst_t)
    src = "func.func @f(%%a0: %s) -> %s {\n  %%r = arith.%s %%a0 : %s to %s\n  return %%r : %s\n}\n" % (t, ot, opname, t, ot, ot)
    if random.random() < 0.5:
        m = dmap(rank, list(range(rank)))
        src = ("func.func @f(%%a0: %s) -> %s {\n  %%e = tensor.empty() : %s\n"
               "  %%r = linalg.generic {indexing_maps = [%s, %s], iterator_types = [%s]} ins(%%a0 : %s) outs(%%e : %s) {\n"
               "  ^bb0(%%x: %s, %%o: %s):\n    %%z = arith.%s %%x : %s to %s\n    linalg.yield %%z : %s\n  } -> %s\n  return %%r : %s\n}\n"
               % (t, ot, ot, m, m, ", ".join(['"parallel"'] * rank), t, ot, src_t, dst_t, opname, src_t, dst_t, dst_t, ot, ot))
    return dict(name="cast%d" % idx, src=src, args=[a], want=[np.asarray(want)], rtol=0, atol=0)


# --------------------------------------------------------------------- TOSA
def gen_tosa(idx):
    rank = random.randint(1, 4)
    shape = rand_shape(rank, 1 << 15)
    et = random.choice(["f32", "f32", "f32", "i32"])
    isf = et == "f32"
    a = rand_array(shape, et)
    args, types = [a], [ttype(shape, et)]
    pre = ['  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>']
    if isf:
        pre.append('  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>')
    lines = []
    cur, x = "%a0", a
    cnt = [0]

    def tt(v):
        return ttype(list(v.shape), str(v.dtype).replace("float32", "f32").replace("int32", "i32").replace("bool", "i1"))

    def fresh():
        cnt[0] += 1
        return "%%t%d" % cnt[0]

    def shp(vals):
        n = fresh()
        lines.append("  %s = tosa.const_shape {values = dense<[%s]> : tensor<%dxindex>} : () -> !tosa.shape<%d>"
                     % (n, ", ".join(map(str, vals)), len(vals), len(vals)))
        return n

    for step in range(random.randint(1, 4)):
        r = x.ndim
        kinds = ["bin", "bin", "reduce", "transpose", "tile", "reverse", "slice", "pad", "concat", "clamp"]
        if isf:
            kinds += ["unary", "unary"]
        if step > 0 and random.random() < 0.15:
            kinds = ["argmax"] if isf else kinds
        kind = random.choice(kinds)
        v = fresh()
        st = tt(x)
        if kind == "bin":
            op = random.choice(["add", "sub", "mul", "maximum", "minimum"])
            bshape = [d if random.random() < 0.6 else 1 for d in x.shape]
            b = rand_array(bshape, et)
            swap = random.random() < 0.3 and bshape != list(x.shape)
            args.append(b); types.append(ttype(bshape, et))
            bn = "%%a%d" % (len(args) - 1)
            f = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "maximum": np.maximum,
                 "minimum": np.minimum}[op]
            out = (f(b, x) if swap else f(x, b)).astype(x.dtype)
            ops = (bn, cur) if swap else (cur, bn)
            ts = (ttype(bshape, et), st) if swap else (st, ttype(bshape, et))
            extra = ", %shift" if op == "mul" else ""
            extrat = ", tensor<1xi8>" if op == "mul" else ""
            lines.append("  %s = tosa.%s %s, %s%s : (%s, %s%s) -> %s" % (v, op, ops[0], ops[1], extra, ts[0], ts[1], extrat, tt(out)))
        elif kind == "reduce":
            ax = random.randrange(r)
            op = random.choice(["sum", "max", "min"] + (["product"] if not isf else []))
            if op == "product":
                continue
            f = {"sum": np.sum, "max": np.max, "min": np.min}[op]
            out = f(x.astype(np.float64) if isf else x, axis=ax, keepdims=True).astype(x.dtype)
            lines.append("  %s = tosa.reduce_%s %s {axis = %d : i32} : (%s) -> %s" % (v, op, cur, ax, st, tt(out)))
        elif kind == "argmax":
            ax = random.randrange(r)
            out = np.argmax(x, axis=ax).astype(np.int32)
            lines.append("  %s = tosa.argmax %s {axis = %d : i32} : (%s) -> %s" % (v, cur, ax, st, tt(out)))
            cur, x = v, out
            break
        elif kind == "transpose":
            perm = list(range(r)); random.shuffle(perm)
            out = np.transpose(x, perm)
            lines.append("  %s = tosa.transpose %s {perms = array<i32: %s>} : (%s) -> %s" % (v, cur, ", ".join(map(str, perm)), st, tt(out)))
        elif kind == "tile":
            m = [random.choice([1, 1, 2, 3]) for _ in range(r)]
            if x.size * np.prod(m) > 1 << 17:
                continue
            out = np.tile(x, m)
            s = shp(m)
            lines.append("  %s = tosa.tile %s, %s : (%s, !tosa.shape<%d>) -> %s" % (v, cur, s, st, r, tt(out)))
        elif kind == "reverse":
            ax = random.randrange(r)
            out = np.flip(x, ax).copy()
            lines.append("  %s = tosa.reverse %s {axis = %d : i32} : (%s) -> %s" % (v, cur, ax, st, tt(out)))
        elif kind == "slice":
            start = [random.randint(0, d - 1) for d in x.shape]
            size = [random.randint(1, d - s0) for d, s0 in zip(x.shape, start)]
            out = x[tuple(slice(s0, s0 + n) for s0, n in zip(start, size))]
            s1, s2 = shp(start), shp(size)
            lines.append("  %s = tosa.slice %s, %s, %s : (%s, !tosa.shape<%d>, !tosa.shape<%d>) -> %s" % (v, cur, s1, s2, st, r, r, tt(out)))
        elif kind == "pad":
            p = [random.randint(0, 2) for _ in range(2 * r)]
            out = np.pad(x, [(p[2 * i], p[2 * i + 1]) for i in range(r)], constant_values=(0.5 if isf else 7))
            s = shp(p)
            pv = fresh()
            lines.append('  %s = "tosa.const"() {values = dense<%s> : tensor<1x%s>} : () -> tensor<1x%s>' % (pv, "0.5" if isf else "7", et, et))
            lines.append("  %s = tosa.pad %s, %s, %s : (%s, !tosa.shape<%d>, tensor<1x%s>) -> %s" % (v, cur, s, pv, st, 2 * r, et, tt(out)))
        elif kind == "concat":
            ax = random.randrange(r)
            bs = list(x.shape); bs[ax] = random.choice([1, 3, 8])
            b = rand_array(bs, et)
            args.append(b); types.append(ttype(bs, et))
            out = np.concatenate([x, b], axis=ax)
            lines.append("  %s = tosa.concat %s, %%a%d {axis = %d : i32} : (%s, %s) -> %s" % (v, cur, len(args) - 1, ax, st, ttype(bs, et), tt(out)))
        elif kind == "clamp":
            if isf:
                out = np.clip(x, -0.5, 0.25)
                lines.append("  %s = tosa.clamp %s {min_val = -0.5 : f32, max_val = 0.25 : f32} : (%s) -> %s" % (v, cur, st, st))
            else:
                out = np.clip(x, -5, 9)
                lines.append("  %s = tosa.clamp %s {min_val = -5 : i32, max_val = 9 : i32} : (%s) -> %s" % (v, cur, st, st))
        elif kind == "unary":
            op = random.choice(["tanh", "sigmoid", "abs", "negate", "exp", "floor", "ceil"])
            with np.errstate(all="ignore"):
                if op == "exp":
                    out = np.exp(np.clip(x, -50, 50)).astype(np.float32)
                    cl = fresh()
                    lines.append("  %s = tosa.clamp %s {min_val = -50.0 : f32, max_val = 50.0 : f32} : (%s) -> %s" % (cl, cur, st, st))
                    lines.append("  %s = tosa.exp %s : (%s) -> %s" % (v, cl, st, st))
                    cur, x = v, out
                    continue
                out = {"tanh": np.tanh, "sigmoid": lambda t: 1 / (1 + np.exp(-t.astype(np.float64))),
                       "abs": np.abs, "negate": np.negative, "floor": np.floor, "ceil": np.ceil}[op](x).astype(np.float32)
            if op == "negate":
                lines.append("  %s = tosa.negate %s, %%zp, %%zp : (%s, tensor<1xf32>, tensor<1xf32>) -> %s" % (v, cur, st, st))
            else:
                lines.append("  %s = tosa.%s %s : (%s) -> %s" % (v, op, cur, st, st))
        cur, x = v, out
    if cur == "%a0":
        return gen_tosa(idx + 100000)
    src = ["func.func @f(%s) -> %s {" % (", ".join("%%a%d: %s" % (k, t) for k, t in enumerate(types)), tt(x))]
    src += pre + lines
    src.append("  return %s : %s" % (cur, tt(x)))
    src.append("}")
    return dict(name="tosa%d" % idx, src="\n".join(src) + "\n", args=args, want=[x],
                rtol=1e-4 if isf else 0, atol=1e-4 if isf else 0)


# ------------------------------------------------------ random op DAGs (f32)
def gen_dag(idx):
    dims = {"M": random.choice([1, 3, 8, 17, 64, 100, 129]),
            "N": random.choice([1, 5, 16, 31, 64, 127, 256]),
            "K": random.choice([2, 7, 16, 33, 128, 255])}
    if BIG:
        dims = {"M": random.choice([256, 1000, 1024]), "N": random.choice([255, 1024, 1021]),
                "K": random.choice([128, 512, 1000])}
    names = list(dims)
    vals = []  # (name, (X, Y), numpy float64)
    args, types, lines = [], [], []
    cnt = [0]

    def t2(s):
        return "tensor<%dx%dxf32>" % (dims[s[0]], dims[s[1]])

    def fresh():
        cnt[0] += 1
        return "%%v%d" % cnt[0]

    def new_arg(shape):
        a = np.random.uniform(-1, 1, (dims[shape[0]], dims[shape[1]])).astype(np.float32)
        args.append(a)
        n = "%%a%d" % (len(args) - 1)
        types.append(t2(shape))
        return n, a.astype(np.float64)

    def empty(shape):
        n = fresh()
        lines.append("  %s = tensor.empty() : %s" % (n, t2(shape)))
        return n

    def pick(shape=None):
        c = [v for v in vals if shape is None or v[1] == shape]
        if c and random.random() < 0.8:
            return random.choice(c)
        shape = shape or (random.choice(names), random.choice(names))
        n, a = new_arg(shape)
        v = (n, shape, a)
        vals.append(v)
        return v

    pick()
    for step in range(random.randint(2, 8)):
        kind = random.choice(["ew", "ew", "unary", "matmul", "transpose", "rownorm", "bcastrow"])
        if kind == "ew":
            x = pick(); y = pick(x[1])
            op, f = random.choice([("addf", np.add), ("subf", np.subtract), ("mulf", np.multiply),
                                   ("maximumf", np.maximum)])
            n = fresh()
            lines.append("  %s = arith.%s %s, %s : %s" % (n, op, x[0], y[0], t2(x[1])))
            vals.append((n, x[1], f(x[2], y[2])))
        elif kind == "unary":
            x = pick()
            n = fresh(); m = fresh()
            lines.append("  %s = math.tanh %s : %s" % (n, x[0], t2(x[1])))
            if random.random() < 0.5:
                lines.append("  %s = math.exp %s : %s" % (m, n, t2(x[1])))
                vals.append((m, x[1], np.exp(np.tanh(x[2]))))
            else:
                vals.append((n, x[1], np.tanh(x[2])))
        elif kind == "matmul":
            x = pick()
            z = random.choice(names)
            y = pick((x[1][1], z))
            e = empty((x[1][0], z))
            zero = fresh(); fill = fresh(); n = fresh(); th = fresh()
            lines.append("  %s = arith.constant 0.0 : f32" % zero)
            lines.append("  %s = linalg.fill ins(%s : f32) outs(%s : %s) -> %s" % (fill, zero, e, t2((x[1][0], z)), t2((x[1][0], z))))
            lines.append("  %s = linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                         % (n, x[0], y[0], t2(x[1]), t2(y[1]), fill, t2((x[1][0], z)), t2((x[1][0], z))))
            k = dims[x[1][1]]
            scale = fresh(); sc = fresh()
            lines.append("  %s = arith.constant dense<%r> : %s" % (scale, 1.0 / k, t2((x[1][0], z))))
            lines.append("  %s = arith.mulf %s, %s : %s" % (sc, n, scale, t2((x[1][0], z))))
            vals.append((sc, (x[1][0], z), (x[2] @ y[2]) * np.float64(np.float32(1.0 / k))))
        elif kind == "transpose":
            x = pick()
            s = (x[1][1], x[1][0])
            e = empty(s); n = fresh()
            lines.append("  %s = linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [1, 0]" % (n, x[0], t2(x[1]), e, t2(s)))
            vals.append((n, s, x[2].T))
        elif kind in ("rownorm", "bcastrow"):
            x = pick()
            X, Y = x[1]
            rt = "tensor<%dxf32>" % dims[X]
            r = fresh(); init = fresh(); e1 = fresh(); fl = fresh()
            red = random.choice(["sum", "max"])
            lines.append("  %s = arith.constant %s : f32" % (init, "0.0" if red == "sum" else "0xFF800000"))
            lines.append("  %s = tensor.empty() : %s" % (e1, rt))
            lines.append("  %s = linalg.fill ins(%s : f32) outs(%s : %s) -> %s" % (fl, init, e1, rt, rt))
            lines.append("  %s = linalg.reduce ins(%s : %s) outs(%s : %s) dimensions = [1]\n    (%%p: f32, %%q: f32) {\n      %%s = arith.%s %%p, %%q : f32\n      linalg.yield %%s : f32\n    }"
                         % (r, x[0], t2(x[1]), fl, rt, "addf" if red == "sum" else "maximumf"))
            rv = x[2].sum(1) if red == "sum" else x[2].max(1)
            e = empty(x[1]); b = fresh(); n = fresh()
            lines.append("  %s = linalg.broadcast ins(%s : %s) outs(%s : %s) dimensions = [1]" % (b, r, rt, e, t2(x[1])))
            lines.append("  %s = arith.subf %s, %s : %s" % (n, x[0], b, t2(x[1])))
            v = x[2] - rv[:, None]
            if red == "sum":
                # keep magnitudes near 1
                th = fresh()
                lines.append("  %s = math.tanh %s : %s" % (th, n, t2(x[1])))
                n, v = th, np.tanh(v)
            vals.append((n, x[1], v))
    # results: the last value and maybe some intermediates
    outs = [vals[-1]] + [v for v in vals[:-1] if not v[0].startswith("%a") and random.random() < 0.25]
    src = ["func.func @f(%s) -> (%s) {" % (", ".join("%%a%d: %s" % (k, t) for k, t in enumerate(types)),
                                         ", ".join(t2(v[1]) for v in outs))]
    src += lines
    src.append("  return %s : %s" % (", ".join(v[0] for v in outs), ", ".join(t2(v[1]) for v in outs)))
    src.append("}")
    return dict(name="dag%d" % idx, src="\n".join(src) + "\n", args=args,
                want=[v[2].astype(np.float32) for v in outs], rtol=2e-4, atol=2e-4)


# ------------------------------------------------ loops and branches on tensors
def gen_ctrl(idx):
    shape = rand_shape(random.randint(1, 3), 1 << 16)
    t = ttype(shape, "f32")
    nvar = random.randint(1, 3)
    args = [np.random.uniform(-1, 1, shape).astype(np.float32) for _ in range(nvar)]
    trips = random.randint(0, 5)
    thr = np.float32(random.uniform(-1, 1))
    lines = ["  %c0 = arith.constant 0 : index", "  %c1 = arith.constant 1 : index",
             "  %n = arith.index_cast %trips : i32 to index"]
    it = ", ".join("%%x%d = %%a%d" % (k, k) for k in range(nvar))
    lines.append("  %%r:%d = scf.for %%i = %%c0 to %%n step %%c1 iter_args(%s) -> (%s) {" % (nvar, it, ", ".join([t] * nvar)))
    lines.append("    %ii = arith.index_cast %i : index to i32")
    lines.append("    %if = arith.sitofp %ii : i32 to f32")
    lines.append("    %is = tensor.splat %if : " + t)
    nb = random.randint(1, 4)
    names = ["%%x%d" % k for k in range(nvar)] + ["%is"]
    steps = []
    for j in range(nb):
        kind = random.choice(["add", "mul", "tanh", "sub", "if"])
        a = random.randrange(len(names)); b = random.randrange(len(names))
        steps.append((kind, a, b))
        n = "%%b%d" % j
        if kind == "tanh":
            lines.append("    %s = math.tanh %s : %s" % (n, names[a], t))
        elif kind == "if":
            # a branch on the first element of a value
            c = "%%cc%d" % j
            lines.append("    %%e%d = tensor.extract %s[%s] : %s" % (j, names[a], ", ".join(["%c0"] * len(shape)), t))
            lines.append("    %s = arith.cmpf olt, %%e%d, %%thr : f32" % (c, j))
            lines.append("    %s = scf.if %s -> (%s) {\n      %%y%d = arith.addf %s, %s : %s\n      scf.yield %%y%d : %s\n    } else {\n      scf.yield %s : %s\n    }"
                         % (n, c, t, j, names[a], names[b], t, j, t, names[b], t))
        else:
            op = {"add": "addf", "mul": "mulf", "sub": "subf"}[kind]
            lines.append("    %s = arith.%s %s, %s : %s" % (n, op, names[a], names[b], t))
        # keep bounded
        lines.append("    %%h%d = math.tanh %s : %s" % (j, n, t))
        names.append("%%h%d" % j)
    # yield a permutation/selection of the available values
    cand = names[:nvar] + names[nvar + 1:]
    ys = [random.choice(cand) for _ in range(nvar)]
    if random.random() < 0.5:
        ys[0] = names[-1]
    lines.append("    scf.yield %s : %s" % (", ".join(ys), ", ".join([t] * nvar)))
    lines.append("  }")
    # numpy
    xs = [a.astype(np.float32) for a in args]
    for i in range(trips):
        env = list(xs) + [np.full(shape, np.float32(i))]
        for j, (kind, a, b) in enumerate(steps):
            A, B = env[a], env[b]
            if kind == "tanh":
                v = np.tanh(A)
            elif kind == "if":
                v = (A + B) if A.flat[0] < thr else B
            else:
                v = {"add": np.add, "mul": np.multiply, "sub": np.subtract}[kind](A, B)
            env.append(np.tanh(v).astype(np.float32))
        xs = [env[names.index(y)] for y in ys]
    outs = list(range(nvar))
    src = ["func.func @f(%s, %%trips: i32, %%thr: f32) -> (%s) {" % (", ".join("%%a%d: %s" % (k, t) for k in range(nvar)), ", ".join([t] * nvar))]
    src += lines
    src.append("  return %s : %s" % (", ".join("%%r#%d" % k for k in outs), ", ".join([t] * nvar)))
    src.append("}")
    return dict(name="ctrl%d" % idx, src="\n".join(src) + "\n",
                args=args + [np.array(trips, np.int32), np.array(thr, np.float32)],
                want=xs, rtol=1e-4, atol=1e-5)


# ------------------------------------------------------ convolutions, pooling
def conv_ref(x, w, sh, sw, dh, dw, depthwise=False):
    N, H, W, C = x.shape
    KH, KW = w.shape[0], w.shape[1]
    OH = (H - (KH - 1) * dh - 1) // sh + 1
    OW = (W - (KW - 1) * dw - 1) // sw + 1
    acc = None
    for kh in range(KH):
        for kw in range(KW):
            patch = x[:, kh * dh: kh * dh + (OH - 1) * sh + 1: sh, kw * dw: kw * dw + (OW - 1) * sw + 1: sw, :]
            term = patch * w[kh, kw] if depthwise else patch @ w[kh, kw]
            acc = term if acc is None else acc + term
    return acc


def gen_conv(idx):
    kind = random.choice(["conv", "conv", "depthwise", "maxpool", "sumpool"])
    et = random.choice(["f32", "f32", "i8"]) if kind in ("conv", "depthwise") else random.choice(["f32", "i32"])
    N = random.choice([1, 1, 2, 3])
    KH, KW = random.choice([1, 2, 3, 5]), random.choice([1, 2, 3, 5])
    sh, sw = random.choice([1, 1, 2, 3]), random.choice([1, 1, 2])
    dh, dw = random.choice([1, 1, 2]), random.choice([1, 1, 2])
    C = random.choice([1, 3, 4, 8, 16, 17, 32, 64])
    F = random.choice([1, 5, 8, 16, 32, 33, 64])
    base = [7, 13, 16, 29, 58] if not BIG else [58, 64, 113]
    H = random.choice(base) + (KH - 1) * dh
    W = random.choice(base) + (KW - 1) * dw
    if BIG:
        C = random.choice([32, 64]); F = random.choice([64, 128])
    OH = (H - (KH - 1) * dh - 1) // sh + 1
    OW = (W - (KW - 1) * dw - 1) // sw + 1
    attrs = "{dilations = dense<[%d, %d]> : tensor<2xi64>, strides = dense<[%d, %d]> : tensor<2xi64>}" % (dh, dw, sh, sw)
    if et == "i8":
        x = np.random.randint(-128, 128, (N, H, W, C)).astype(np.int8)
        acc_t = "i32"
    elif et == "i32":
        x = np.random.randint(-1000, 1000, (N, H, W, C)).astype(np.int32)
        acc_t = "i32"
    else:
        x = np.random.uniform(-1, 1, (N, H, W, C)).astype(np.float32)
        acc_t = "f32"
    xt = "tensor<%dx%dx%dx%dx%s>" % (N, H, W, C, et)
    zero = "0" if acc_t == "i32" else "0.0"
    if kind == "conv":
        w = (np.random.randint(-128, 128, (KH, KW, C, F)).astype(np.int8) if et == "i8"
             else np.random.uniform(-1, 1, (KH, KW, C, F)).astype(np.float32))
        wt = "tensor<%dx%dx%dx%dx%s>" % (KH, KW, C, F, et)
        ot = "tensor<%dx%dx%dx%dx%s>" % (N, OH, OW, F, acc_t)
        want = conv_ref(x.astype(np.float64 if et == "f32" else np.int64), w.astype(np.float64 if et == "f32" else np.int64), sh, sw, dh, dw)
        op = "linalg.conv_2d_nhwc_hwcf %s ins(%%x, %%w : %s, %s) outs(%%f : %s) -> %s" % (attrs, xt, wt, ot, ot)
        args = [x, w]; sig = "%%x: %s, %%w: %s" % (xt, wt)
    elif kind == "depthwise":
        w = (np.random.randint(-128, 128, (KH, KW, C)).astype(np.int8) if et == "i8"
             else np.random.uniform(-1, 1, (KH, KW, C)).astype(np.float32))
        wt = "tensor<%dx%dx%dx%s>" % (KH, KW, C, et)
        ot = "tensor<%dx%dx%dx%dx%s>" % (N, OH, OW, C, acc_t)
        want = conv_ref(x.astype(np.float64 if et == "f32" else np.int64), w.astype(np.float64 if et == "f32" else np.int64), sh, sw, dh, dw, True)
        op = "linalg.depthwise_conv_2d_nhwc_hwc %s ins(%%x, %%w : %s, %s) outs(%%f : %s) -> %s" % (attrs, xt, wt, ot, ot)
        args = [x, w]; sig = "%%x: %s, %%w: %s" % (xt, wt)
    else:
        ot = "tensor<%dx%dx%dx%dx%s>" % (N, OH, OW, C, acc_t)
        kt = "tensor<%dx%dx%s>" % (KH, KW, acc_t)
        wins = []
        for kh in range(KH):
            for kw in range(KW):
                wins.append(x[:, kh * dh: kh * dh + (OH - 1) * sh + 1: sh, kw * dw: kw * dw + (OW - 1) * sw + 1: sw, :].astype(np.float64 if et == "f32" else np.int64))
        if kind == "maxpool":
            want = np.max(np.stack(wins), 0)
            zero = "0xFF800000" if acc_t == "f32" else "-2147483648"
            name = "pooling_nhwc_max"
        else:
            want = np.sum(np.stack(wins), 0)
            name = "pooling_nhwc_sum"
        op = "linalg.%s %s ins(%%x, %%k : %s, %s) outs(%%f : %s) -> %s" % (name, attrs, xt, kt, ot, ot)
        args = [x]; sig = "%%x: %s" % xt
    src = ("func.func @f(%s) -> %s {\n  %%z = arith.constant %s : %s\n  %%e = tensor.empty() : %s\n"
           "  %%f = linalg.fill ins(%%z : %s) outs(%%e : %s) -> %s\n" % (sig, ot, zero, acc_t, ot, acc_t, ot, ot))
    if kind in ("maxpool", "sumpool"):
        src += "  %%k = tensor.empty() : %s\n" % kt
    src += "  %%r = %s\n  return %%r : %s\n}\n" % (op, ot)
    isf = acc_t == "f32"
    n = KH * KW * (C if kind == "conv" else 1)
    return dict(name="conv%d" % idx, src=src, args=args,
                want=[want.astype(np.float32 if isf else np.int32)],
                rtol=1e-5 if isf else 0, atol=(1e-6 * np.sqrt(n) * 4) if isf else 0)


FAMILIES = {
    "elementwise": gen_elementwise,
    "reduction": gen_reduction,
    "datamove": gen_datamove,
    "integer": gen_intops,
    "cast": gen_casts,
    "tosa": gen_tosa,
    "graph": gen_dag,
    "loop": gen_ctrl,
    "conv": gen_conv,
}
