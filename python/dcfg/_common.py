"""What the package's modules share: the Error exception, the numpy switch,
buffers of edge ids."""

import array
import ctypes
import os

from . import _lib

if os.environ.get("DCFG_NO_NUMPY"):
    np = None
else:
    try:
        import numpy as np
    except ImportError:
        np = None


class Error(Exception):
    """A DCFG or trace that cannot be read, or whose data is wrong.

    str(e) is the library's message, "FILE:LINE:COLUMN: what is wrong"
    (or "FILE: what is wrong" when there is no position), as the commands
    print it after their name.  The parts are in e.file, e.line, e.column
    (0 when there is no position) and e.message.
    """

    def __init__(self, text, file="", line=0, column=0, message=None):
        super().__init__(text)
        self.file, self.line, self.column = file, line, column
        self.message = text if message is None else message


def error_from(err):
    """An Error from a filled struct dcfg_error."""
    buf = ctypes.create_string_buffer(1024)
    _lib.dcfg_error_format(ctypes.byref(err), buf, len(buf))
    decode = lambda b: b.decode("utf-8", "surrogateescape")
    return Error(decode(buf.value), decode(err.file), err.line, err.column,
                 decode(err.message))


def text(b):
    """A name from the file as str; bytes that are not UTF-8 survive as
    surrogates (os.fsdecode's rule), so nothing is lost."""
    return None if b is None else b.decode("utf-8", "surrogateescape")


def id_buffer(n):
    """A new buffer of N edge ids: a numpy uint32 array, else array.array('I')."""
    if np is not None:
        return np.empty(n, dtype=np.uint32)
    return array.array("I", bytes(4 * n))


def id_space(buf, start):
    """(the address of BUF[START], the room after it, in ids) for the
    library to write edge ids into.  BUF must be a one-dimensional,
    contiguous, writable numpy uint32 array or an array.array('I')
    (TypeError otherwise: the library writes 4 bytes an id, in a row), and
    START within it (ValueError otherwise)."""
    if np is not None and isinstance(buf, np.ndarray):
        if buf.dtype != np.uint32 or buf.ndim != 1 or not buf.flags.c_contiguous \
                or not buf.flags.writeable:
            raise TypeError("edge ids are read into a contiguous, writable, one-dimensional "
                            "uint32 array, not %s %s" % (buf.dtype, buf.shape))
        addr = buf.ctypes.data
    elif isinstance(buf, array.array) and buf.typecode == "I" and buf.itemsize == 4:
        addr = buf.buffer_info()[0]
    else:
        raise TypeError("edge ids are read into a numpy uint32 array or an array.array('I'), "
                        "not %s" % type(buf).__name__)
    if not 0 <= start <= len(buf):
        raise ValueError("start %d is outside the buffer of %d ids" % (start, len(buf)))
    return addr + 4 * start, len(buf) - start
