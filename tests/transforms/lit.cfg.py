# lit configuration of the tests of each pass (tests/transforms): aot-opt
# runs one pass on the `// -----` cases of a file and FileCheck reads the
# result, as MLIR's own pass tests do. The tools and substitutions are those
# of the CLI suite (tests/cli), aot-opt's directory first on PATH.
import os

lit_config.load_config(config, os.path.join(config.aot_cli_source_dir,
                                             "lit.cfg.py"))
config.name = "mlir-aot transforms"
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "aot-opt.cpp"]
config.environment["PATH"] = os.pathsep.join(
    [os.path.dirname(config.aot_opt), config.environment["PATH"]])
