# lit configuration of the aot-testgen tests (tests/testgen). The tools and
# substitutions are those of the CLI suite (tests/cli/lit.cfg.py), plus
# aot-testgen on PATH and:
#   %{numpy-python}  a Python with numpy, for the reference scripts
#   %{inputs}        tests/testgen/Inputs
import os

lit_config.load_config(config, os.path.join(config.aot_cli_source_dir,
                                             "lit.cfg.py"))
config.name = "mlir-aot testgen"
config.suffixes = [".test"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.excludes = ["Inputs", "CMakeLists.txt", "EndToEnd.cmake",
                   "ExpectOutput.cmake", "LitSuite.cmake", "lit.cfg.py",
                   "lit.site.cfg.py.in", "test_Reference.cpp",
                   "test_Generator.cpp"]

if not getattr(config, "aot_testgen", None):
    lit_config.fatal("'aot_testgen' is not set: run the tests through the "
                     "lit.site.cfg.py that CMake generates")
config.environment["PATH"] = os.pathsep.join(
    [os.path.dirname(config.aot_testgen), config.environment["PATH"]])

numpy_python = getattr(config, "numpy_python", "")
if not numpy_python:
    lit_config.fatal("no Python with numpy: the references need it")
config.substitutions.append(("%{numpy-python}", '"%s"' % numpy_python))
config.substitutions.append(
    ("%{inputs}", os.path.join(config.test_source_root, "Inputs")))
