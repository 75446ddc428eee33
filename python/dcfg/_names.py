"""Names as dcfg-tools writes them, by the library's rules: the escaping
of dcfg-stream(5), section Names (dcfg_escape_name(3)), and the names of
code of dcfg-count(1), NAMES (dcfg_code_name(3))."""

import ctypes
import weakref

from . import _lib


def escape(name):
    """NAME (str, or bytes) as every text output of dcfg-tools writes it
    (dcfg-stream(5), Names), by the library's rule (dcfg_escape_name(3)):
    a backslash, tab, newline or carriage return as \\\\, \\t, \\n, \\r;
    another byte below 0x20, 0x7f, a byte of a C1 control and a byte that
    is not part of valid UTF-8 as \\xHH; the rest, valid UTF-8, as it is."""
    b = name.encode("utf-8", "surrogateescape") if isinstance(name, str) else bytes(name)
    # the library takes C strings: a NUL, a byte below 0x20, is \x00 between them
    return "\\x00".join(_escaped(part) for part in b.split(b"\0"))


def _escaped(b):
    size = 4 * len(b) + 1      # an escape is at most 4 bytes a byte
    buf = ctypes.create_string_buffer(size)
    _lib.dcfg_escape_name(b, buf, size)
    return buf.value.decode("utf-8")


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
