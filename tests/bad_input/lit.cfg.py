# lit configuration of the bad-input tests (tests/bad_input): every input
# here must give a clear error and exit status exactly 1, never a crash.
# The tools and substitutions are those of the CLI suite (tests/cli).
import os

lit_config.load_config(config, os.path.join(config.aot_cli_source_dir,
                                             "lit.cfg.py"))
config.name = "mlir-aot bad input"
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.excludes = ["Inputs", "tools", "CMakeLists.txt", "lit.cfg.py",
                   "test_call_errors.cpp",
                   "test_bytecode_variants.cpp"]
config.substitutions.append(
    ("%{inputs}", os.path.join(config.test_source_root, "Inputs")))
