"""Reading the manifests that compiled code carries in its ELF section
``aot_manifest`` (one NUL-terminated JSON document per module), without
loading the file: it works for code built for another machine too."""

import json
import os
import stat
import struct

from ._errors import LoadError

MANIFEST_SECTION = b"aot_manifest"

_ELF_MAGIC = b"\x7fELF"
_ELFCLASS64 = 2
_ELFDATA2LSB = 1
_SHT_NOBITS = 8
_SHN_XINDEX = 0xFFFF
_SECTION_HEADER = struct.Struct("<IIQQQQIIQQ")

# ELF e_machine of the machines Python reports in platform.machine().
MACHINES = {
    "x86_64": 62,
    "amd64": 62,
    "aarch64": 183,
    "arm64": 183,
    "ppc64le": 21,
    "riscv64": 243,
}


def _no_manifest(path, why):
    return LoadError(
        "%s: holds no manifest (%s): not compiled by mlir-aot" % (path, why))


def _read(f, offset, size, path, file_size):
    # Checked against the file's size first: a damaged header may claim
    # any offset or size, and reading it as given would ask for exabytes.
    if offset < 0 or size < 0 or offset > file_size - size:
        raise LoadError("%s: truncated ELF file: bytes [%d, %d) lie beyond "
                        "its end (%d bytes)" % (path, offset, offset + size,
                                                file_size))
    f.seek(offset)
    data = f.read(size)
    if len(data) != size:
        raise LoadError("%s: truncated ELF file" % path)
    return data


def _open_regular(path):
    """`path` opened for reading, if it is a regular file. Opening does not
    block (a FIFO put in its place would wait for a writer for ever)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        raise LoadError("%s: cannot read: %s" % (path, e.strerror or e)) from e
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = ("a directory" if stat.S_ISDIR(st.st_mode) else
                    "a pipe or FIFO" if stat.S_ISFIFO(st.st_mode) else
                    "a device" if stat.S_ISCHR(st.st_mode)
                    or stat.S_ISBLK(st.st_mode) else "not a regular file")
            raise LoadError("%s: cannot read: it is %s, not a regular file"
                            % (path, kind))
        return os.fdopen(fd, "rb"), st.st_size
    except BaseException:
        os.close(fd)
        raise


def _parse_manifest(path, piece):
    try:
        return json.loads(piece.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        why = ("nested too deeply" if isinstance(e, RecursionError)
               else str(e))
        raise LoadError("%s: its embedded manifest is not valid JSON: %s"
                        % (path, why)) from None


def read_elf_manifests(path):
    """The manifests (dicts) held by the ELF64 little-endian file at `path`,
    and its ELF machine number, as ``(manifests, machine)``.

    Raises LoadError when the file cannot be read, is no such ELF file, or
    has no ``aot_manifest`` section."""
    f, file_size = _open_regular(path)
    with f:
        header = f.read(64)
        if len(header) < 64 or header[:4] != _ELF_MAGIC:
            raise _no_manifest(path, "not an ELF file")
        if header[4] != _ELFCLASS64 or header[5] != _ELFDATA2LSB:
            raise _no_manifest(path, "not a 64-bit little-endian ELF file")
        (machine,) = struct.unpack_from("<H", header, 0x12)
        (shoff,) = struct.unpack_from("<Q", header, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", header, 0x3A)
        if shoff == 0:
            raise _no_manifest(path, "no section headers")
        if shentsize < _SECTION_HEADER.size:
            raise LoadError("%s: bad ELF section header size %d"
                            % (path, shentsize))
        # More than 0xff00 sections: the counts live in section 0.
        first = _SECTION_HEADER.unpack(
            _read(f, shoff, _SECTION_HEADER.size, path, file_size))
        if shnum == 0:
            shnum = first[5]
        if shstrndx == _SHN_XINDEX:
            shstrndx = first[6]
        table = _read(f, shoff, shentsize * shnum, path, file_size)
        sections = [_SECTION_HEADER.unpack_from(table, i * shentsize)
                    for i in range(shnum)]
        if shstrndx >= shnum:
            raise LoadError("%s: bad ELF section name table index" % path)
        names = sections[shstrndx]
        strtab = _read(f, names[4], names[5], path, file_size)
        manifests = []
        found = False
        for sh in sections:
            name_end = strtab.find(b"\0", sh[0])
            name = strtab[sh[0]:name_end if name_end >= 0 else None]
            if name != MANIFEST_SECTION or sh[1] == _SHT_NOBITS:
                continue
            found = True
            for piece in _read(f, sh[4], sh[5], path, file_size).split(b"\0"):
                if piece.strip():
                    manifests.append(_parse_manifest(path, piece))
        if not found:
            raise _no_manifest(path, "no section 'aot_manifest'")
        return manifests, machine
