"""Names as dcfg-tools writes them: the escaping of dcfg-stream(5),
section Names (the rule of lib/common/output.c, which is not public), and
the names of code of dcfg-count(1), NAMES (the library's, dcfg_code_name(3))."""

import ctypes
import re
import weakref

from . import _lib
from ._common import np

_PLAIN = re.compile(rb"[\x20-\x5b\x5d-\x7e]*\Z")
_SHORT = {0x5C: "\\\\", 0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}


def raw(name):
    """NAME (str from the package, or bytes) as the bytes of the file."""
    return name.encode("utf-8", "surrogateescape") if isinstance(name, str) else bytes(name)


def _utf8_kept(b, i):
    """The length of the valid UTF-8 character at B[I] (2 to 4 bytes), or 0
    when none starts there or it is a C1 control (U+0080..U+009F)."""
    c0 = b[i]
    if 0xC2 <= c0 <= 0xDF:
        n, c = 2, c0 & 0x1F
    elif 0xE0 <= c0 <= 0xEF:
        n, c = 3, c0 & 0x0F
    elif 0xF0 <= c0 <= 0xF4:
        n, c = 4, c0 & 0x07
    else:
        return 0
    if i + n > len(b):
        return 0
    for k in range(1, n):
        if b[i + k] & 0xC0 != 0x80:
            return 0
        c = c << 6 | (b[i + k] & 0x3F)
    if (n == 3 and c < 0x800) or (n == 4 and c < 0x10000) or c > 0x10FFFF or \
            0xD800 <= c <= 0xDFFF or c <= 0x9F:
        return 0
    return n


def escape(name):
    """NAME (str, or bytes) as every text output of dcfg-tools writes it
    (dcfg-stream(5), Names): a backslash, tab, newline or carriage return
    as \\\\, \\t, \\n, \\r; another byte below 0x20, 0x7f, a byte of a C1
    control and a byte that is not part of valid UTF-8 as \\xHH; the
    rest, valid UTF-8, as it is."""
    b = raw(name)
    if _PLAIN.match(b):
        return b.decode("ascii")
    out, i, n = [], 0, len(b)
    while i < n:
        c = b[i]
        if 0x20 <= c < 0x7F and c != 0x5C:
            out.append(chr(c))
            i += 1
            continue
        k = _utf8_kept(b, i) if c >= 0x80 else 0
        if k:
            out.append(b[i:i + k].decode("utf-8"))
            i += k
            continue
        out.append(_SHORT.get(c) or "\\x%02x" % c)
        i += 1
    return "".join(out)


def column(table, field):
    """Column FIELD of a table as a list (ranges as (first, count) tuples)."""
    if np is not None:
        return table[field].tolist()
    return [getattr(r, field) for r in table]


class CodeNames:
    """The names of code of one process (dcfg-count(1), NAMES), by the
    library's one rule (dcfg_code_name(3)): by symbol, symbol+0xOFF,
    IMAGE+0xOFF, and "@IMAGE" after a symbol name another image of the
    process also has.  Text as in the file (unescaped): escape() gives what
    the commands write."""

    def __init__(self, dcfg, pid):
        handle = _lib.dcfg_code_names_new(dcfg._h(), dcfg._process(pid))
        if not handle:
            raise MemoryError("no memory for the names of process %d" % pid)
        self._handle = handle
        self._owner = dcfg._owner     # the names point into the DCFG: it stays loaded
        weakref.finalize(self, _lib.dcfg_code_names_free, handle)
        self._buf = ctypes.create_string_buffer(256)

    def at(self, addr):
        """The name of the code at ADDR, as bytes of the file."""
        if not 0 <= addr < 1 << 64:
            return b"-+0x%x" % addr     # no image holds it
        n = _lib.dcfg_code_name(self._handle, addr, self._buf, len(self._buf))
        if n >= len(self._buf):
            self._buf = ctypes.create_string_buffer(n + 1)
            _lib.dcfg_code_name(self._handle, addr, self._buf, len(self._buf))
        return self._buf.raw[:n]


def names_of(dcfg, pid):
    """The CodeNames of process PID of DCFG, made once per DCFG."""
    cache = dcfg.__dict__.setdefault("_code_names", {})
    if pid not in cache:
        cache[pid] = CodeNames(dcfg, pid)
    return cache[pid]


def code_name(dcfg, pid, addr):
    """The name of the code at ADDR in process PID of the loaded DCFG
    (symbols and images kept), as dcfg-count and every table, profile and
    picture of dcfg-tools name code (dcfg-count(1), NAMES), by the C
    library's dcfg_code_name(3): "main", "sym+0x1c", "IMAGE+0x40",
    "_init@libc.so.6".  The text is the file's; escape() gives what the
    commands write.  KeyError when the DCFG has no process PID."""
    return names_of(dcfg, pid).at(addr).decode("utf-8", "surrogateescape")
