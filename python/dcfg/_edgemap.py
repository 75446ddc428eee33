"""A process's edges by id, for instruction windows and counting: whether
each is the process's, and what it costs (dcfg_edge_instrs(3))."""

import array

from . import _lib
from ._common import Error, id_space, np
from ._reader import fail_at_process


def process_of(dcfg, pid, trace_path=None):
    """The index of process PID in the loaded DCFG; Error when absent,
    placed at the PROCESS_ID of the trace at TRACE_PATH as dcfg-expand
    places it (without a place when the trace cannot be read again)."""
    try:
        return dcfg.process(pid)
    except KeyError:
        pass
    message = "process %d is not in the DCFG" % pid
    fail_at_process(trace_path, pid, message)
    raise Error(message)


class EdgeMap:
    """The edges of process PID of a loaded DCFG (Error when absent, as process_of)."""

    def __init__(self, dcfg, pid, trace_path=None):
        process_of(dcfg, pid, trace_path)
        self._h, self._p = dcfg._h(), dcfg._process(pid)
        self._owner = dcfg._owner      # the pointers are into the DCFG: it stays loaded

    def instrs(self, ids):
        """(the NUM_INSTRS of each edge's source, up to the first id that is
        not the process's and 0 from there; that id's position, or None)."""
        out = np.zeros(len(ids), dtype=np.uint64) if np is not None else \
            array.array("Q", bytes(8 * len(ids)))
        addr = out.ctypes.data if np is not None else out.buffer_info()[0]
        n = _lib.dcfg_edge_instrs(self._h, self._p, id_space(ids, 0)[0], len(ids), addr)
        return out, (None if n == len(ids) else n)

    def first_missing(self, ids):
        """The position of the first id of IDS not in the DCFG, or None."""
        return self.instrs(ids)[1]
