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


def buffer_address(buf):
    """The address of the first element of an id buffer."""
    if np is not None and isinstance(buf, np.ndarray):
        return buf.ctypes.data
    return buf.buffer_info()[0]
