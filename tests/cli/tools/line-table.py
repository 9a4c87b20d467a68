#!/usr/bin/env python3
"""Lists the source positions of a DWARF line table.

usage: llvm-dwarfdump --debug-line OBJECT | line-table.py [--show-source]

Reads llvm-dwarfdump's text and prints each distinct FILE:LINE:COL that a row
of the line table names (line 0, "no source", left out), FILE being the
directory and name the table records, sorted by file, line and column. With
--show-source each position is followed by ": " and that line of FILE with
its indentation stripped; a file that cannot be read or a line past its end
is an error (exit 1), so a check on the output also checks that the lines
exist.
"""
import re
import sys

INCLUDE = re.compile(r'^include_directories\[\s*(\d+)\] = "(.*)"$')
FILE = re.compile(r'^file_names\[\s*(\d+)\]:$')
NAME = re.compile(r'^\s+name: "(.*)"$')
DIR_INDEX = re.compile(r'^\s+dir_index: (\d+)$')
ROW = re.compile(r'^0x[0-9a-f]+\s+(\d+)\s+(\d+)\s+(\d+)\s')


def positions(lines):
    found = set()
    include, files, current = {}, {}, None
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith("debug_line["):
            include, files, current = {}, {}, None
        elif m := INCLUDE.match(line):
            include[int(m.group(1))] = m.group(2)
        elif m := FILE.match(line):
            current = int(m.group(1))
            files[current] = ["", 0]
        elif current is not None and (m := NAME.match(line)):
            files[current][0] = m.group(1)
        elif current is not None and (m := DIR_INDEX.match(line)):
            files[current][1] = int(m.group(1))
        elif m := ROW.match(line):
            row_line, column, file = (int(g) for g in m.groups())
            if row_line == 0:
                continue
            name, directory = files[file]
            if not name.startswith("/") and include.get(directory):
                name = include[directory].rstrip("/") + "/" + name
            found.add((name, row_line, column))
    return sorted(found)


def main(argv):
    show_source = "--show-source" in argv[1:]
    if any(a != "--show-source" for a in argv[1:]):
        sys.stderr.write(__doc__)
        return 2
    status = 0
    sources = {}
    for name, line, column in positions(sys.stdin):
        text = ""
        if show_source:
            if name not in sources:
                try:
                    with open(name) as f:
                        sources[name] = f.read().splitlines()
                except OSError as e:
                    print("error: cannot read %s: %s" % (name, e))
                    sources[name] = None
                    status = 1
            source = sources[name]
            if source is None:
                continue
            if line > len(source):
                print("error: %s has %d lines, the line table names line %d"
                      % (name, len(source), line))
                status = 1
                continue
            text = ": " + source[line - 1].strip()
        print("%s:%d:%d%s" % (name, line, column, text))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
