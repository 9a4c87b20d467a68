#!/usr/bin/env python3
"""Writes a copy of an MLIR bytecode file with one byte XOR-ed with a mask.

usage: flip-byte.py INPUT OUTPUT POSITION MASK

POSITION is a byte offset, or a named place in the bytecode header, so that
a test keeps hitting the same field when the producer string changes length:
  magic-N         byte N (0..3) of the magic number "ML\\xefR"
  version         the first byte of the version varint (offset 4)
  producer-end    the NUL that ends the producer string ("MLIR22.1.8")
  section-id      the id of the first section (just after producer-end)
  section-length  the first byte of the first section's length varint
MASK is an integer (0x80 flips the top bit).
"""
import sys


def locate(data, position):
    if position.startswith("magic-"):
        return int(position[len("magic-"):])
    if position == "version":
        return 4
    # The version is a prefix varint: the count of trailing zero bits of its
    # first byte, plus one, is its length in bytes.
    first = data[4]
    length = 1
    while length < 9 and not (first >> (length - 1)) & 1:
        length += 1
    end = data.index(0, 4 + length)
    offsets = {"producer-end": end, "section-id": end + 1,
               "section-length": end + 2}
    if position in offsets:
        return offsets[position]
    return int(position, 0)


def main(argv):
    if len(argv) != 5:
        sys.stderr.write(__doc__)
        return 2
    data = bytearray(open(argv[1], "rb").read())
    if data[:4] != b"ML\xefR":
        sys.stderr.write("flip-byte: %s is not MLIR bytecode\n" % argv[1])
        return 2
    offset = locate(data, argv[3])
    data[offset] ^= int(argv[4], 0)
    open(argv[2], "wb").write(bytes(data))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
