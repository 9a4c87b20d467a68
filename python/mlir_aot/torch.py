"""PyTorch modules through ONNX: export, compile, reference tensors.

    import mlir_aot.torch
    f = mlir_aot.torch.compile(model, (x,), dynamic_dims={0: [0]})
    y = f(x)                          # a tensor, as model(x) returns one

The route is torch.onnx.export (opset 17) into an .onnx file, which
aot-compile imports. add_aot_target(TORCH_LOADER package.module:fn) runs
this module's command line at build time, the counterpart of the
torch_loader_path of mlir-tcp's aot_compile:

    python3 -m mlir_aot.torch --loader package.module:fn --onnx OUT.onnx
        [--reference OUT.npz] [--pythonpath DIR]...

where fn() returns a LoaderOutput. torch and onnx are imported only when a
function needs them, so ``import mlir_aot`` never needs either; without
them these functions raise mlir_aot.ExportError naming the package.
"""

import argparse
import importlib
import os
import shutil
import sys
import tempfile

import numpy as np

from . import _compile
from ._errors import ExportError

DEFAULT_OPSET = 17

_INSTALL_HINT = ("Debian: apt install python3-torch python3-onnx; "
                 "pip: pip install torch onnx")


class LoaderOutput:
    """What a loader function returns: a model and the inputs to export,
    check and compile it with.

    model: a torch.nn.Module (exported and run in eval mode).
    inputs: a tensor, or a list or tuple of tensors, the sample inputs.
    dynamic_dims: the dims of the inputs whose size is left open: a dict
        {input index: [dim, ...]} or a list with one list of dims (or None)
        per input; None: every dim keeps the sample's size.
    input_names, output_names: the ONNX graph's names (default input0...,
        output0...); the compiled function takes and returns them in order.
    """

    def __init__(self, model, inputs, dynamic_dims=None, input_names=None,
                 output_names=None):
        self.model = model
        self.inputs = inputs
        self.dynamic_dims = dynamic_dims
        self.input_names = input_names
        self.output_names = output_names

    def __repr__(self):
        return ("LoaderOutput(model=%s, inputs=%d tensor(s), dynamic_dims=%r)"
                % (type(self.model).__name__, len(_as_list(self.inputs)),
                   self.dynamic_dims))


def _require():
    """torch and onnx, or an ExportError naming what to install. onnx is
    needed too: torch.onnx.export writes through it, and the exported
    graph is read back to check it."""
    try:
        import torch
    except ImportError as e:
        raise ExportError("mlir_aot.torch needs PyTorch, which does not "
                          "import: %s (%s)" % (e, _INSTALL_HINT)) from None
    try:
        import onnx
    except ImportError as e:
        raise ExportError("mlir_aot.torch needs the onnx package, which does "
                          "not import: %s (%s)" % (e, _INSTALL_HINT)) from None
    return torch, onnx


def _as_list(inputs):
    if isinstance(inputs, (list, tuple)):
        return list(inputs)
    return [inputs]


def _tensors(torch, inputs):
    inputs = _as_list(inputs)
    for i, t in enumerate(inputs):
        if not isinstance(t, torch.Tensor):
            raise ExportError("input %d is a %s, not a torch.Tensor: the "
                              "compiled function takes tensors only"
                              % (i, type(t).__name__))
    return inputs


def _dynamic_axes(dynamic_dims, inputs, input_names):
    """torch.onnx.export's dynamic_axes for DYNAMIC_DIMS: dim d of input i
    becomes the symbol x<i>_d<d>, which the importer turns into a dynamic
    dim (its name is not kept)."""
    if dynamic_dims is None:
        return None
    if isinstance(dynamic_dims, dict):
        items = list(dynamic_dims.items())
    elif isinstance(dynamic_dims, (list, tuple)):
        if len(dynamic_dims) > len(inputs):
            raise ValueError("dynamic_dims has %d entries for %d inputs"
                             % (len(dynamic_dims), len(inputs)))
        items = list(enumerate(dynamic_dims))
    else:
        raise ValueError("dynamic_dims must be a dict {input index: [dims]} "
                         "or a list of dims per input, got %r"
                         % (dynamic_dims,))
    axes = {}
    for index, dims in items:
        if dims is None:
            continue
        if (not isinstance(index, int) or isinstance(index, bool)
                or not 0 <= index < len(inputs)):
            raise ValueError("dynamic_dims names input %r; the model has %d "
                             "inputs" % (index, len(inputs)))
        rank = inputs[index].dim()
        named = {}
        for dim in ([dims] if isinstance(dims, int) else dims):
            if (not isinstance(dim, int) or isinstance(dim, bool)
                    or not -rank <= dim < rank):
                raise ValueError("dynamic_dims: input %d has rank %d, no dim "
                                 "%r" % (index, rank, dim))
            dim %= rank
            named[dim] = "x%d_d%d" % (index, dim)
        if named:
            axes[input_names[index]] = named
    return axes or None


def _flat_outputs(torch, outputs):
    """The model's results in the order the ONNX graph has them: nested
    tuples and lists flattened, as torch.onnx.export does."""
    if isinstance(outputs, torch.Tensor):
        return [outputs]
    if isinstance(outputs, (list, tuple)):
        return [t for o in outputs for t in _flat_outputs(torch, o)]
    raise ExportError("the model returned a %s; only tensors and (nested) "
                      "tuples or lists of tensors can be exported"
                      % type(outputs).__name__)


def _forward(torch, model, inputs):
    # With gradients, like the export: under no_grad torch 1.13 takes fused
    # fast paths (TransformerEncoderLayer) that compute another way.
    with torch.enable_grad():
        return _flat_outputs(torch, model(*inputs))


def _to_numpy(torch, t):
    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        # numpy has no bf16: its bits, as the reference format stores it.
        return t.view(torch.int16).numpy().view(np.uint16)
    return t.numpy()


def function_name(graph_name):
    """The name of the function that aot-compile makes of an ONNX graph
    named GRAPH_NAME (torch 1.13 names its graphs 'torch_jit'): letters,
    digits and '_', never starting with '__' or a digit. The importer's
    own rule (lib/Frontend/Onnx/OnnxGraph.cpp), which the reference keys
    must follow."""
    name = "".join(c if c.isascii() and c.isalnum() else "_"
                   for c in graph_name)
    while len(name) > 1 and name.startswith("__"):
        name = name[1:]
    if not name or name[0].isdigit():
        name = "main" + ("_" + name if name else "")
    return name


def _replace_if_changed(path, same, write):
    """Writes PATH through WRITE(temporary path) unless SAME(PATH) says the
    file already holds it, so that a build re-runs nothing downstream of a
    loader whose model did not change."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, scratch = tempfile.mkstemp(prefix=".mlir_aot-", dir=directory)
    os.close(fd)
    try:
        write(scratch)
        if os.path.isfile(path) and same(path, scratch):
            return
        # mkstemp's file is private (0600); the output gets the usual mode.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(scratch, 0o666 & ~umask)
        os.replace(scratch, path)
        scratch = None
    finally:
        if scratch is not None:
            os.remove(scratch)


def _same_bytes(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def _same_npz(a, b):
    # Not the bytes: np.savez stamps each member with the time.
    try:
        with np.load(a) as za, np.load(b) as zb:
            if sorted(za.files) != sorted(zb.files):
                return False
            for key in za.files:
                x, y = za[key], zb[key]
                if (x.dtype != y.dtype or x.shape != y.shape
                        or x.tobytes() != y.tobytes()):
                    return False
            return True
    except (OSError, ValueError):
        return False


def _export(torch, onnx, module, inputs, path, dynamic_dims, opset,
            input_names, output_names):
    """Exports MODULE to PATH; returns the function name aot-compile will
    give it and the model's outputs on INPUTS (torch tensors)."""
    inputs = _tensors(torch, inputs)
    if not isinstance(module, torch.nn.Module):
        raise ExportError("the model is a %s, not a torch.nn.Module"
                          % type(module).__name__)
    module.eval()
    outputs = _forward(torch, module, inputs)
    input_names = _input_names(input_names, len(inputs))
    output_names = list(output_names or
                        ["output%d" % i for i in range(len(outputs))])
    if len(input_names) != len(inputs):
        raise ValueError("%d input names for %d inputs"
                         % (len(input_names), len(inputs)))
    if len(output_names) != len(outputs):
        raise ValueError("%d output names for %d outputs"
                         % (len(output_names), len(outputs)))
    axes = _dynamic_axes(dynamic_dims, inputs, input_names)

    def write(scratch):
        try:
            with torch.enable_grad():
                torch.onnx.export(module, tuple(inputs), scratch,
                                  opset_version=opset,
                                  input_names=input_names,
                                  output_names=output_names,
                                  dynamic_axes=axes,
                                  training=torch.onnx.TrainingMode.EVAL)
        except Exception as e:
            raise ExportError("torch.onnx.export (opset %d) failed for %s: "
                              "%s: %s" % (opset, type(module).__name__,
                                          type(e).__name__, e)) from e

    _replace_if_changed(path, _same_bytes, write)
    graph = onnx.load(path, load_external_data=False).graph
    # The compiled function's arguments are the graph's inputs: one that
    # the export dropped (unused by the model) would shift the others.
    exported = [v.name for v in graph.input]
    if exported != input_names:
        missing = [n for n in input_names if n not in exported]
        raise ExportError("the exported graph's inputs are %s, not %s: the "
                          "model does not use %s, so torch.onnx.export left "
                          "it out" % (exported, input_names,
                                      ", ".join(missing) or "all of them"))
    return function_name(graph.name), outputs


def export(module, inputs, path, dynamic_dims=None, opset=DEFAULT_OPSET,
           input_names=None, output_names=None):
    """Exports the torch.nn.Module MODULE, traced on INPUTS (a tensor or a
    list or tuple of tensors), to the ONNX file PATH; returns PATH.

    The module is put in eval mode and exported with gradients enabled
    (torch 1.13's fused attention path under no_grad has no export).
    DYNAMIC_DIMS leaves dims open (see LoaderOutput); inputs are named
    input0..., outputs output0... unless INPUT_NAMES/OUTPUT_NAMES say
    otherwise. PATH is left untouched when it already holds the same
    model. Raises ExportError when torch or onnx is missing or the export
    fails."""
    torch, onnx = _require()
    path = os.fspath(path)
    _export(torch, onnx, module, inputs, path, dynamic_dims, opset,
            input_names, output_names)
    return path


def _input_names(names, count):
    """The graph's input names: NAMES, or input0... by default."""
    return list(names or ["input%d" % i for i in range(count)])


def _other_size_inputs(torch, inputs, dynamic_dims, input_names):
    """The sample inputs with every dynamic dim at another size (one more
    where the sample has 1 or 2, one less above: a sequence stays within
    what the model takes), drawn as the sample is: floats from a normal
    distribution, integers between the sample's least and greatest value,
    booleans at random; the same dims of equal inputs stay equal. None
    where no dim is dynamic."""
    axes = _dynamic_axes(dynamic_dims, inputs, input_names)
    if not axes:
        return None
    generator = torch.Generator().manual_seed(0)
    resized = []
    for name, t in zip(input_names, inputs):
        shape = list(t.shape)
        for dim in (axes.get(name) or {}):
            shape[dim] = shape[dim] + 1 if shape[dim] <= 2 else shape[dim] - 1
        if t.dtype.is_floating_point:
            r = torch.randn(shape, generator=generator).to(t.dtype)
        elif t.dtype == torch.bool:
            r = torch.randint(0, 2, shape, generator=generator).bool()
        elif t.numel() == 0:
            r = torch.zeros(shape, dtype=t.dtype)
        else:
            low, high = int(t.min()), int(t.max())
            r = torch.randint(low, high + 1, shape, generator=generator,
                              dtype=t.dtype)
        resized.append(r)
    return resized


def _write_reference(torch, path, function, inputs, outputs):
    arrays = {}
    for i, t in enumerate(inputs):
        arrays["%s/arg%d" % (function, i)] = _to_numpy(torch, t)
    for k, t in enumerate(outputs):
        arrays["%s/result%d" % (function, k)] = _to_numpy(torch, t)

    def write(scratch):
        # A file object: given a name, np.savez would append ".npz" to it.
        with open(scratch, "wb") as f:
            np.savez(f, **arrays)

    _replace_if_changed(path, _same_npz, write)
    return path


def reference(loader_output, path, function=None, opset=DEFAULT_OPSET,
              other_sizes=False):
    """Writes PATH, the reference .npz that add_aot_target's generated test
    reads: the sample inputs as FUNCTION/arg0..., and PyTorch's outputs on
    them as FUNCTION/result0... .

    FUNCTION: the compiled function's name; None: the one aot-compile gives
    the model's ONNX graph, found by exporting it to a temporary file.
    OTHER_SIZES: random inputs with every dynamic dim at another size in
    place of the sample (the sample itself where no dim is dynamic), for a
    second run of the generated test. Returns PATH."""
    torch, onnx = _require()
    model = loader_output.model
    sample = _tensors(torch, loader_output.inputs)
    inputs = sample
    if other_sizes:
        names = _input_names(loader_output.input_names, len(sample))
        inputs = _other_size_inputs(torch, sample, loader_output.dynamic_dims,
                                    names) or sample
    if function is None:
        scratch = tempfile.mkdtemp(prefix="mlir_aot-torch-")
        try:
            function, _ = _export(
                torch, onnx, model, sample, os.path.join(scratch, "m.onnx"),
                loader_output.dynamic_dims, opset, loader_output.input_names,
                loader_output.output_names)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    model.eval()
    outputs = _forward(torch, model, inputs)
    return _write_reference(torch, os.fspath(path), function, inputs,
                            outputs)


class CompiledModule:
    """A PyTorch module compiled by mlir-aot, called like the module:
    numpy arrays or torch tensors in; numpy arrays out, or torch tensors
    when any argument was one; a single result unwrapped, several as a
    tuple. ``module`` is the loaded mlir_aot.Module, ``function`` its one
    function."""

    def __init__(self, module):
        self.module = module
        self.name = module.functions[0]
        self.function = module[self.name]
        self._result_dtypes = [
            r.get("dtype") for f in module.manifest["functions"]
            if f["name"] == self.name for r in f["results"]]

    def __call__(self, *args):
        torch = sys.modules.get("torch")
        as_torch = torch is not None and any(
            isinstance(a, torch.Tensor) for a in args)
        if as_torch:
            args = [_to_numpy(torch, a) if isinstance(a, torch.Tensor) else a
                    for a in args]
        results = self.function(*args)
        if not as_torch:
            return results
        many = isinstance(results, tuple)
        tensors = tuple(self._to_torch(torch, r, k) for k, r in
                        enumerate(results if many else (results,)))
        return tensors if many else tensors[0]

    def _to_torch(self, torch, array, k):
        if not isinstance(array, np.ndarray):
            return torch.tensor(array)
        if k < len(self._result_dtypes) and self._result_dtypes[k] == "bf16":
            return torch.from_numpy(array.view(np.int16).copy()).view(
                torch.bfloat16)
        # A result may borrow read-only memory (a constant of the library),
        # which torch.from_numpy refuses to share.
        if not array.flags.writeable:
            return torch.from_numpy(array.copy())
        return torch.from_numpy(array)

    def __repr__(self):
        return "<mlir_aot.torch.CompiledModule %s of %r>" % (
            self.name, self.module)


def compile(module, inputs, dynamic_dims=None, output=None,
            opset=DEFAULT_OPSET, **options):
    """Exports MODULE traced on INPUTS (see export), compiles the ONNX file
    with mlir_aot.compile(**OPTIONS: opt, threads, target, extra_args) and
    returns a CompiledModule.

    OUTPUT: where to write the shared library, with the .onnx beside it
    (same name, .onnx); None: both go to a temporary directory, removed
    once the library is loaded. Raises ExportError or CompileError."""
    torch, onnx = _require()
    stem = "".join(c if c.isalnum() else "_"
                   for c in type(module).__name__.lower()) or "model"
    scratch = None
    if output is None:
        scratch = tempfile.mkdtemp(prefix="mlir_aot-torch-")
        onnx_path = os.path.join(scratch, stem + ".onnx")
    else:
        output = os.fspath(output)
        onnx_path = os.path.splitext(output)[0] + ".onnx"
    try:
        _export(torch, onnx, module, inputs, onnx_path, dynamic_dims, opset,
                None, None)
        return CompiledModule(_compile.compile(onnx_path, output=output,
                                               **options))
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


def _load(loader, pythonpath):
    """Calls the loader 'package.module:function' with PYTHONPATH's
    directories first on sys.path."""
    module_name, sep, function = loader.partition(":")
    if not sep or not module_name or not function:
        raise ExportError("--loader %r must be MODULE:FUNCTION, e.g. "
                          "models.mlp:load" % loader)
    for directory in reversed(pythonpath):
        sys.path.insert(0, os.path.abspath(directory))
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise ExportError("cannot import the loader's module %r (PYTHONPATH "
                          "directories: %s): %s"
                          % (module_name, ", ".join(pythonpath) or "none",
                             e)) from e
    fn = getattr(module, function, None)
    if not callable(fn):
        raise ExportError("%s (%s) has no function %r"
                          % (module_name, module.__file__, function))
    result = fn()
    if not isinstance(result, LoaderOutput):
        raise ExportError("%s returned a %s, not a mlir_aot.torch."
                          "LoaderOutput" % (loader, type(result).__name__))
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m mlir_aot.torch",
        description="Exports the model a loader function returns to ONNX "
                    "and writes PyTorch's outputs on its sample inputs as "
                    "the reference .npz of add_aot_target's generated test.")
    parser.add_argument("--loader", required=True,
                        metavar="MODULE:FUNCTION",
                        help="a function returning a LoaderOutput")
    parser.add_argument("--onnx", required=True, metavar="OUT.onnx")
    parser.add_argument("--reference", metavar="OUT.npz")
    parser.add_argument("--other-sizes", metavar="OUT.npz",
                        help="a second reference: random inputs with every "
                        "dynamic dim at another size (the sample where no "
                        "dim is dynamic)")
    parser.add_argument("--pythonpath", action="append", default=[],
                        metavar="DIR", help="where the loader's module is "
                        "(repeatable; each may be a %r-separated list)"
                        % os.pathsep)
    parser.add_argument("--opset", type=int, default=DEFAULT_OPSET)
    args = parser.parse_args(argv)
    pythonpath = [d for entry in args.pythonpath
                  for d in entry.split(os.pathsep) if d]
    try:
        torch, onnx = _require()
        loaded = _load(args.loader, pythonpath)
        function, outputs = _export(
            torch, onnx, loaded.model, loaded.inputs, args.onnx,
            loaded.dynamic_dims, args.opset, loaded.input_names,
            loaded.output_names)
        inputs = _tensors(torch, loaded.inputs)
        if args.reference:
            _write_reference(torch, args.reference, function, inputs,
                             outputs)
        if args.other_sizes:
            names = _input_names(loaded.input_names, len(inputs))
            other = _other_size_inputs(torch, inputs, loaded.dynamic_dims,
                                       names)
            if other is not None:
                inputs, outputs = other, _forward(torch, loaded.model, other)
            _write_reference(torch, args.other_sizes, function, inputs,
                             outputs)
    except (ExportError, ValueError) as e:
        sys.stderr.write("mlir_aot.torch: error: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    # Run as mlir_aot.torch, not as __main__: a loader's LoaderOutput is
    # mlir_aot.torch.LoaderOutput, which __main__'s copy would not be.
    from mlir_aot.torch import main as _main
    sys.exit(_main())
