# lit configuration of the bad-input tests (tests/bad_input): every input
# here must give a clear error and exit status exactly 1, never a crash.
# The tools and substitutions are those of the CLI suite (tests/cli).
import os
import shutil
import sys

lit_config.load_config(config, os.path.join(config.aot_cli_source_dir,
                                             "lit.cfg.py"))
config.name = "mlir-aot bad input"
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.excludes = ["Inputs", "tools", "CMakeLists.txt", "lit.cfg.py",
                   "test_call_errors.cpp",
                   "test_bytecode_variants.cpp"]
config.substitutions.append(
    ("%{inputs}", os.path.join(config.test_source_root, "Inputs")))
# Rewrites the manifest embedded in a compiled file (tools/patch-manifest.py).
config.substitutions.append(
    ("%{patch-manifest}", '"%s" "%s"' % (sys.executable, os.path.join(
        config.test_source_root, "tools", "patch-manifest.py"))))
# Runs a command as a user without root's right to write anything, so that a
# read-only file is read-only to it: setpriv to nobody when the tests run as
# root, the command as it is otherwise (feature "unprivileged").
if os.getuid() != 0:
    config.available_features.add("unprivileged")
    config.substitutions.append(("%{unprivileged}", ""))
elif shutil.which("setpriv"):
    config.available_features.add("unprivileged")
    config.substitutions.append(
        ("%{unprivileged}",
         "setpriv --reuid=65534 --regid=65534 --clear-groups"))
