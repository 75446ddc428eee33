"""dcfg: Intel's DCFG and DCFG-trace formats from Python, over libdcfg.

    import dcfg
    d = dcfg.load("prog.dcfg.json.gz")            # the tables, as arrays
    for t in dcfg.Trace("prog.trace.json.bz2").threads():
        for ids in t.edges():                      # batches of edge ids
            ...
    dcfg.count("prog.trace.json.bz2", d, by="routine")

The library is found through the environment variable DCFG_LIBRARY (a
path), else ctypes.util.find_library("dcfg"), else "libdcfg.so.0".  numpy
is used when it is installed (DCFG_NO_NUMPY=1 in the environment makes the
package behave as if it were not): tables are then structured arrays that
view the library's memory (read-only), and batches of edges numpy uint32 arrays;
without it, lists of named tuples and array.array columns.

Errors in the files raise dcfg.Error, whose text is the library's
"FILE:LINE:COLUMN: what is wrong".
"""

from ._common import Error, np as _np
from ._model import (DCFG, KEEP_ALL, KEEP_BLOCKS, KEEP_EDGE_COUNTS, KEEP_EDGES,
                     KEEP_ROUTINES, KEEP_SOURCE, KEEP_SYMBOLS, NONE, Range, edge_kind_name, load)
from ._reader import OK, RUN_BEGIN, RUN_END, RUN_NONE, SKIP, STOP, Chunk, read_trace
from ._trace import Process, Thread, Trace
from ._count import BY, LoopRow, Row, count, count_dcfg
from ._names import code_name, escape
from . import _lib

__version__ = _lib.dcfg_library_version().decode()
HAVE_NUMPY = _np is not None
SPECIAL_NONE, SPECIAL_OTHER, SPECIAL_START, SPECIAL_END, SPECIAL_UNKNOWN = range(5)

__all__ = [
    "Error", "DCFG", "load", "Range", "NONE", "edge_kind_name",
    "KEEP_SYMBOLS", "KEEP_SOURCE", "KEEP_BLOCKS", "KEEP_ROUTINES", "KEEP_EDGES",
    "KEEP_EDGE_COUNTS", "KEEP_ALL", "Trace", "Process", "Thread", "Chunk", "read_trace",
    "OK", "SKIP", "STOP", "RUN_NONE", "RUN_BEGIN", "RUN_END", "count", "count_dcfg", "BY", "Row",
    "LoopRow", "code_name", "escape", "HAVE_NUMPY",
    "SPECIAL_NONE", "SPECIAL_OTHER", "SPECIAL_START", "SPECIAL_END", "SPECIAL_UNKNOWN",
]
