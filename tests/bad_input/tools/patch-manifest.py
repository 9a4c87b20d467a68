#!/usr/bin/env python3
"""Rewrites the manifest embedded in a compiled file, in place, to make a
library whose manifest disagrees with its code.

usage: patch-manifest.py FILE OUT STATEMENT

STATEMENT is Python run with `m` bound to the (first) manifest, a dict, for
example "m['functions'][0]['results'][0]['shape'] = [32]". The manifest is
written back compact, padded with spaces to the section's length (JSON
allows them), so nothing else in the file moves; an empty "link" list is
dropped to make room when the new text is longer.
"""
import json
import struct
import sys


def manifest_span(data):
    """(offset, size) of the first manifest in the aot_manifest section."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    header = struct.Struct("<IIQQQQIIQQ")
    sections = [header.unpack_from(data, shoff + i * shentsize)
                for i in range(shnum)]
    names = sections[shstrndx]
    for sh in sections:
        start = names[4] + sh[0]
        name = data[start:data.index(b"\0", start)]
        if name == b"aot_manifest":
            end = data.index(b"\0", sh[4])
            return sh[4], end - sh[4]
    sys.exit("no aot_manifest section")


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    data = bytearray(open(argv[1], "rb").read())
    offset, size = manifest_span(data)
    m = json.loads(data[offset:offset + size])
    exec(argv[3], {"m": m})
    text = json.dumps(m, separators=(",", ":"))
    if len(text) > size and m.get("link") == []:
        del m["link"]
        text = json.dumps(m, separators=(",", ":"))
    if len(text) > size:
        sys.exit("the new manifest is %d bytes, the section holds %d"
                 % (len(text), size))
    data[offset:offset + size] = text.ljust(size).encode()
    open(argv[2], "wb").write(data)


if __name__ == "__main__":
    main(sys.argv)
