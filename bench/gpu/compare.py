"""The GPU benchmark: runs aot-bench-gpu (the compiled kernels, through their
device entry points) and times the same operations with PyTorch (cuBLAS,
TF32 off for f32) in the same run, then prints one table.

    python3 compare.py PATH/TO/aot-bench-gpu [RUNS]

Each figure is the median of RUNS timed calls (default 20) after 5 warm-up
calls, on data already in device memory. PyTorch is timed with CUDA events.
"""
import subprocess
import sys

try:
    import torch
except ImportError as e:
    torch = None
    torch_missing = str(e)


def torch_ms(fn, runs):
    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def torch_figures(runs):
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    out = {}
    for dtype, tag in ((torch.float32, "f32"), (torch.float16, "f16")):
        for n in (1024, 2048, 4096):
            a = torch.rand(n, n, device="cuda", dtype=dtype) - 0.5
            b = torch.rand(n, n, device="cuda", dtype=dtype) - 0.5
            ms = torch_ms(lambda: torch.matmul(a, b), runs)
            out["matmul_%s_%d" % (tag, n)] = (ms, 2.0 * n ** 3 / (ms * 1e-3) / 1e12)
    x = torch.rand(4096, 4096, device="cuda") - 0.5
    ms = torch_ms(lambda: torch.softmax(x, dim=1), runs)
    out["softmax_f32_4096"] = (ms, 2.0 * x.numel() * 4 / (ms * 1e-3) / 1e9)
    a = torch.rand(8192, 8192, device="cuda")
    b = torch.rand(8192, 8192, device="cuda")
    nbytes = a.numel() * 4
    ms = torch_ms(lambda: torch.add(a, b), runs)
    out["add_f32_8192"] = (ms, 3.0 * nbytes / (ms * 1e-3) / 1e9)
    ms = torch_ms(lambda: b.copy_(a), runs)
    out["copy_f32_8192"] = (ms, 2.0 * nbytes / (ms * 1e-3) / 1e9)
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    done = subprocess.run([sys.argv[1], str(runs)], capture_output=True,
                          text=True)
    if done.returncode != 0:
        sys.exit("aot-bench-gpu failed (exit %d): %s" % (done.returncode,
                                                          done.stderr.strip()))
    ours, units, gpu = {}, {}, "?"
    for line in done.stdout.splitlines():
        fields = line.split("\t")
        if fields[0] == "gpu":
            gpu = fields[1]
        elif len(fields) == 4:
            ours[fields[0]] = (float(fields[1]), float(fields[2]))
            units[fields[0]] = fields[3]
    if torch is None or not torch.cuda.is_available():
        sys.exit("compare.py needs PyTorch with CUDA for the baseline (%s)"
                 % (torch_missing if torch is None else "no CUDA device"))
    theirs = torch_figures(runs)
    print("GPU: %s (driver device 0); PyTorch %s, CUDA %s; median of %d runs"
          % (gpu, torch.__version__, torch.version.cuda, runs))
    print("| case | mlir-aot | PyTorch (cuBLAS) | mlir-aot / PyTorch |")
    print("| --- | ---: | ---: | ---: |")
    for case, (ms, figure) in ours.items():
        unit = units[case]
        if case not in theirs:
            print("| %s | %.3f ms | | |" % (case, ms))
            continue
        tms, tfigure = theirs[case]
        print("| %s | %.3f ms, %.2f %s | %.3f ms, %.2f %s | %.2f |"
              % (case, ms, figure, unit, tms, tfigure, unit, figure / tfigure))
    copy = theirs["copy_f32_8192"][1]
    for case in ("softmax_f32_4096", "add_f32_8192"):
        if case in ours:
            print("%s: %.0f%% of PyTorch's device-to-device copy bandwidth"
                  % (case, 100.0 * ours[case][1] / copy))


if __name__ == "__main__":
    main()
