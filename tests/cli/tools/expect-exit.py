#!/usr/bin/env python3
"""Runs a command and succeeds only if it exits with exactly the given status.

usage: expect-exit.py STATUS [--timeout SECONDS] [--file-size-limit BYTES]
                      COMMAND [ARGS...]

`not` accepts any non-zero status, so it cannot tell a clean error (status 1)
from a crash. This helper fails when the command is killed by a signal (a
segmentation fault, an abort), when it runs past the timeout (a hang), and
when it exits with any status other than STATUS. The command's standard
streams are passed through untouched, so its output can be piped to
FileCheck.

--file-size-limit makes every write past BYTES fail with EFBIG ("File too
large"), the way a full disk makes writes fail, without touching a device.
"""
import resource
import signal
import subprocess
import sys


def limit_file_size(limit):
    def apply():
        # Ignored, SIGXFSZ turns into an EFBIG error from write().
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    expected = int(argv[1])
    args = argv[2:]
    timeout = 300.0
    preexec = None
    while args and args[0] in ("--timeout", "--file-size-limit"):
        if len(args) < 2:
            sys.stderr.write("expect-exit: %s needs a value\n" % args[0])
            return 2
        if args[0] == "--timeout":
            timeout = float(args[1])
        else:
            preexec = limit_file_size(int(args[1]))
        args = args[2:]
    if not args:
        sys.stderr.write("expect-exit: no command given\n")
        return 2
    try:
        status = subprocess.run(args, timeout=timeout,
                                preexec_fn=preexec).returncode
    except subprocess.TimeoutExpired:
        sys.stderr.write("expect-exit: '%s' hung: still running after %g s\n"
                         % (args[0], timeout))
        return 1
    except OSError as e:
        sys.stderr.write("expect-exit: cannot run '%s': %s\n" % (args[0], e))
        return 1
    sys.stdout.flush()
    if status < 0 or status >= 128:
        number = -status if status < 0 else status - 128
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = "signal %d" % number
        sys.stderr.write("expect-exit: '%s' crashed: killed by %s\n"
                         % (args[0], name))
        return 1
    if status != expected:
        sys.stderr.write("expect-exit: '%s' exited with status %d, expected %d\n"
                         % (args[0], status, expected))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
