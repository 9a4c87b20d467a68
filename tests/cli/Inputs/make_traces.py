"""Writes kernel trace directories as --trace-kernels-to lays them out
(NNNN-KERNEL.npz with members argI, launches.jsonl), for --diff-traces."""
import json
import os
import sys

import numpy as np

root = sys.argv[1]
rng = np.random.default_rng(7)
add = rng.standard_normal((4, 8)).astype(np.float32)
scale = rng.standard_normal((3, 4)).astype(np.float32)
launches = [("add$generic_0_kernel", "m.mlir:9:8", add),
            ("scale$generic_0_kernel", "m.mlir:19:8", scale)]


def write(name, entries):
    d = os.path.join(root, name)
    os.makedirs(d)
    with open(os.path.join(d, "launches.jsonl"), "w") as index:
        for number, (kernel, location, data) in enumerate(entries, 1):
            file = "%04d-%s.npz" % (number, kernel)
            np.savez(os.path.join(d, file), arg0=data)
            index.write(json.dumps({"launch": number, "kernel": kernel,
                                    "location": location, "file": file,
                                    "buffers": ["arg0"]}) + "\n")


write("a", launches)
write("same", [(k, l, d.copy()) for k, l, d in launches])
off = scale.copy()
off[1, 2] += 0.5
write("off", [launches[0], (launches[1][0], launches[1][1], off)])
write("other", [("add$fused_kernel", "m.mlir:9:8", add), launches[1]])
write("short", launches[:1])
