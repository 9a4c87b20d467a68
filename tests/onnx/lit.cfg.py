# lit configuration of the ONNX front-end tests (tests/onnx): malformed and
# unsupported models must give a clear error naming the node or the file and
# exit status 1; good ones compile from every front door. The tools and
# substitutions are those of the CLI suite (tests/cli).
import os

lit_config.load_config(config, os.path.join(config.aot_cli_source_dir,
                                             "lit.cfg.py"))
config.name = "mlir-aot onnx"
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "zoo.py"]
config.substitutions.append(
    ("%{inputs}", os.path.join(config.test_source_root, "Inputs")))
# The model scripts import a module beside them: no __pycache__ in the
# source tree.
config.environment["PYTHONDONTWRITEBYTECODE"] = "1"
# The models are written by onnx.helper at test time (python3-onnx).
try:
    import onnx  # noqa: F401
    config.available_features.add("python-onnx")
except ImportError:
    pass
# torchvision's detection ops are the reference of detection-ops.test (found,
# not imported: importing torch takes seconds).
import importlib.util
if importlib.util.find_spec("torchvision") is not None:
    config.available_features.add("python-torchvision")
