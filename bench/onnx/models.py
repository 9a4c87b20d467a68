"""Real networks from PyTorch, through ONNX, compiled by mlir-aot and timed
next to PyTorch on the same machine, in the same run.

usage: models.py AOT_COMPILE [--threads 1,2] [--batch 1,8] [--repeats N]
                 [--dynamic-image] [MODEL...]

Each model (seeded random weights at their real sizes; nothing is
downloaded) is exported with torch.onnx.export (opset 17, the batch dim
dynamic), compiled with aot-compile -O3 once per thread count (its wall time
and peak resident memory measured), and called through mlir_aot at each
batch size on the same inputs as PyTorch (no_grad). PyTorch's matmuls go
through libblas.so.3 (OpenBLAS, which scripts/setup.sh installs), whose
threads and PyTorch's own compete: PyTorch is timed in child processes,
eager and torch.jit.freeze'd, under each threading setup (with N threads:
PyTorch N and OpenBLAS 1; 1 and N; N and N), and its best is reported with
how it was reached. The outputs must agree (the zoo's check: rtol 1e-3,
atol 1e-4) before anything is timed. Medians of N calls (default 10);
with --repeats 0 the outputs are checked and only the compiles are timed.
Each latency row also gives the GFLOP of the model's MatMul, Gemm and Conv
nodes and the rate both runs reach on them, and the run ends with the rate
of PyTorch's own 1024 x 1024 matmul on each thread count: how near the
machine's matmul speed each network already runs. With --dynamic-image,
each model whose input is an image is run a second time, exported with
its height and width dynamic too (rows "NAME, H x W dynamic").
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
import onnx.shape_inference
import torch
import torchvision

import mlir_aot


def encoder(dim, heads, ffn, layers):
    stack = torch.nn.TransformerEncoder(
        torch.nn.TransformerEncoderLayer(dim, heads, ffn, batch_first=True,
                                         activation="gelu"),
        num_layers=layers)
    # TransformerEncoder copies one layer; the exporter would keep one copy
    # of weights that are equal. Each layer its own, as in a trained model.
    with torch.no_grad():
        for p in stack.parameters():
            p.normal_(0, 0.02)
    return stack


def gpt(**kw):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
        __file__)), "..", "..", "tests", "onnx"))
    import zoo
    return zoo.Gpt(**kw)


MODELS = {
    # name: (make, inputs at a batch size)
    "resnet18": (torchvision.models.resnet18,
                 lambda b: [torch.randn(b, 3, 224, 224)]),
    "resnet50": (torchvision.models.resnet50,
                 lambda b: [torch.randn(b, 3, 224, 224)]),
    "mobilenet_v2": (torchvision.models.mobilenet_v2,
                     lambda b: [torch.randn(b, 3, 224, 224)]),
    # BERT-base's encoder: 12 layers, 768 wide, 12 heads, FFN 3072, S=128.
    "bert_base_encoder": (lambda: encoder(768, 12, 3072, 12),
                          lambda b: [torch.randn(b, 128, 768)]),
    # GPT-2 small's shape at 4 blocks: 768 wide, 12 heads, vocab 50257.
    "gpt2_4_blocks": (lambda: gpt(vocab=50257, dim=768, heads=12, blocks=4,
                                  context=1024),
                      lambda b: [torch.randint(0, 50257, (b, 128))]),
}


def timed(f, repeats):
    f()  # warm
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def model_and_inputs(name, batch):
    make, inputs = MODELS[name]
    torch.manual_seed(0)
    module = make().eval()
    return module, inputs(batch)


def torch_time(name, batch, threads, repeats):
    """Run in a child: PyTorch's medians for `name`, eager and frozen, on
    `threads` threads (OPENBLAS_NUM_THREADS set by the parent)."""
    module, x = model_and_inputs(name, batch)
    torch.set_num_threads(threads)
    with torch.no_grad():
        eager = timed(lambda: module(*x), repeats)
        try:
            frozen = torch.jit.freeze(torch.jit.trace(module, tuple(x)))
            jit = timed(lambda: frozen(*x), repeats)
        except Exception:  # a model tracing cannot take: eager only
            jit = float("inf")
    print(eager, jit)
    return 0


def best_torch_time(name, batch, threads, repeats):
    setups = ([(1, 1)] if threads == 1 else
              [(threads, 1), (1, threads), (threads, threads)])
    best = None
    for torch_threads, blas_threads in setups:
        env = dict(os.environ, OPENBLAS_NUM_THREADS=str(blas_threads))
        out = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--torch-time", name,
             str(batch), str(torch_threads), str(repeats)],
            env=env, check=True, capture_output=True, text=True).stdout
        eager, jit = (float(v) for v in out.split()[-2:])
        for t, mode in ((eager, "eager"), (jit, "jit.freeze")):
            if best is None or t < best[0]:
                best = (t, "%s %d/%d" % (mode, torch_threads, blas_threads))
    return best


def contraction_flops(module, inputs, workdir):
    """Floating-point operations of the model's MatMul, Gemm and Conv nodes
    (two per multiply-add) on `inputs`: nearly all of a network's
    arithmetic, against which both runs' rates are read. From ONNX's shape
    inference on an export at these inputs' shapes, where no shape is left
    to compute at run time."""
    path = os.path.join(workdir, "static.onnx")
    torch.onnx.export(module, tuple(inputs), path, opset_version=17)
    graph = onnx.shape_inference.infer_shapes(
        onnx.load(path, load_external_data=False)).graph
    shapes = {}
    for v in list(graph.input) + list(graph.value_info) + list(graph.output):
        shapes[v.name] = [d.dim_value for d in v.type.tensor_type.shape.dim]
    for t in graph.initializer:
        shapes[t.name] = list(t.dims)
    flops = 0
    for node in graph.node:
        if node.op_type not in ("MatMul", "Gemm", "Conv"):
            continue
        out = shapes[node.output[0]]
        if not out or not all(out):
            raise SystemExit("%s: the shape of %s is not known" %
                             (path, node.output[0]))
        if node.op_type == "MatMul":
            k = shapes[node.input[0]][-1]
        elif node.op_type == "Gemm":
            trans_a = any(a.name == "transA" and a.i for a in node.attribute)
            k = shapes[node.input[0]][0 if trans_a else 1]
        else:  # Conv: input channels per group times the kernel window
            k = int(np.prod(shapes[node.input[1]][1:]))
        flops += 2 * int(np.prod(out)) * k
    return flops


def matmul_rate(threads, n=1024, repeats=10):
    """Run in a child: PyTorch's (OpenBLAS's) f32 N x N matmul in GFLOP/s
    on `threads` threads, PyTorch's and OpenBLAS's (set by the parent):
    what a tuned GEMM reaches on this machine, in the same run."""
    torch.set_num_threads(threads)
    a, b = torch.randn(n, n), torch.randn(n, n)
    print(2 * n**3 / timed(lambda: torch.mm(a, b), repeats) / 1e9)
    return 0


def best_matmul_rate(threads):
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads))
    out = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--mm-rate",
         str(threads)], env=env, check=True, capture_output=True,
        text=True).stdout
    return float(out.split()[-1])


def compile_model(compiler, path, library, threads):
    """aot-compile's wall time (s) and peak resident memory (MiB).

    The peak is GNU time's (/usr/bin/time, Debian's `time`): the rusage of
    a child forked from this process would count the pages it shared with
    this one (torch and the model) before it exec'd the compiler."""
    with tempfile.NamedTemporaryFile(mode="r", suffix=".rss") as rss:
        start = time.perf_counter()
        run = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss.name,
                              compiler, path, "-o", library, "-O3",
                              "--threads=%d" % threads])
        seconds = time.perf_counter() - start
        if run.returncode != 0:
            raise SystemExit("aot-compile failed on %s" % path)
        return seconds, int(rss.read().split()[-1]) / 1024


def run(compiler, name, threads_list, batches, repeats, workdir, rows,
        dynamic_image=False):
    module, x = model_and_inputs(name, 1)
    label = name + (", H x W dynamic" if dynamic_image else "")
    # Its own file names: a library loaded again under the same path would
    # be the one loaded first.
    stem = name + ("_hw" if dynamic_image else "")
    path = os.path.join(workdir, stem + ".onnx")
    names = ["x%d" % i for i in range(len(x))]
    axes = {0: "batch"}
    if dynamic_image:
        axes.update({2: "height", 3: "width"})
    torch.onnx.export(module, tuple(x), path, opset_version=17,
                      input_names=names,
                      dynamic_axes={n: axes for n in names})
    weights = sum(p.numel() for p in module.parameters())
    gflop = {}  # per batch: it depends on the shapes only
    for threads in threads_list:
        library = os.path.join(workdir, "%s_%d.so" % (stem, threads))
        seconds, peak = compile_model(compiler, path, library, threads)
        rows["compile"].append(
            "| %s | %.0f M | %.0f MiB | %d | %.1f s | %.0f MiB |"
            % (label, weights / 1e6, os.path.getsize(path) / 2**20, threads,
               seconds, peak))
        m = mlir_aot.load(library)
        f = m[m.functions[0]]
        for batch in batches:
            module, x = model_and_inputs(name, batch)
            args = [t.numpy() for t in x]
            torch.set_num_threads(threads)
            with torch.no_grad():
                want = module(*x).numpy()
            got = f(*args)
            worst = float(np.max(np.abs(got - want) /
                                 (1e-4 + 1e-3 * np.abs(want))))
            if got.shape != want.shape or not worst <= 1:
                raise SystemExit("%s: results differ from PyTorch's (%.1f "
                                 "times the tolerance)" % (name, worst))
            if not repeats:
                continue
            ours = timed(lambda: f(*args), repeats)
            theirs, how = best_torch_time(name, batch, threads, repeats)
            if batch not in gflop:
                gflop[batch] = contraction_flops(module, x, workdir) / 1e9
            rows["latency"].append(
                "| %s | %d | %d | %.2f ms | %.2f ms (%s) | %.2f | %.1f | "
                "%.0f | %.0f |"
                % (label, batch, threads, ours * 1e3, theirs * 1e3, how,
                   theirs / ours, gflop[batch], gflop[batch] / ours,
                   gflop[batch] / theirs))
            print(rows["latency"][-1], file=sys.stderr, flush=True)


def main(argv):
    args = argv[1:]
    if args[:1] == ["--torch-time"]:
        return torch_time(args[1], int(args[2]), int(args[3]), int(args[4]))
    if args[:1] == ["--mm-rate"]:
        return matmul_rate(int(args[1]))
    if not args:
        sys.stderr.write(__doc__)
        return 2
    compiler, args = args[0], args[1:]
    threads, batches, repeats = [1, 2], [1, 8], 10
    names, dynamic_image = [], False
    while args:
        a = args.pop(0)
        if a == "--threads":
            threads = [int(v) for v in args.pop(0).split(",")]
        elif a == "--batch":
            batches = [int(v) for v in args.pop(0).split(",")]
        elif a == "--repeats":
            repeats = int(args.pop(0))
        elif a == "--dynamic-image":
            dynamic_image = True
        else:
            names.append(a)
    rows = {"latency": [], "compile": []}
    with tempfile.TemporaryDirectory(prefix="aot-bench-onnx-") as workdir:
        for name in names or list(MODELS):
            run(compiler, name, threads, batches, repeats, workdir, rows)
            if dynamic_image and model_and_inputs(name, 1)[1][0].dim() == 4:
                run(compiler, name, threads, batches, repeats, workdir, rows,
                    dynamic_image=True)
    print("| model | batch | threads | mlir-aot | PyTorch, best (mode "
          "threads/OpenBLAS threads) | PyTorch / mlir-aot | GFLOP | "
          "mlir-aot GFLOP/s | PyTorch GFLOP/s |")
    print("| --- | --- | --- | --- | --- | --- | ---: | ---: | ---: |")
    print("\n".join(rows["latency"]))
    print()
    if repeats:
        print("torch.mm, f32 1024 x 1024: " + ", ".join(
            "%.0f GFLOP/s on %d thread%s" % (best_matmul_rate(t), t,
                                             "s" if t > 1 else "")
            for t in threads))
        print()
    print("| model | parameters | ONNX file | threads | aot-compile -O3 | "
          "peak memory |")
    print("| --- | --- | --- | --- | --- | --- |")
    print("\n".join(rows["compile"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
