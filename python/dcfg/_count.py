"""The counting of dcfg-count --by, by the library's counter
(dcfg_counter(3)): Python feeds it a trace's edges, a run at a time, or the
DCFG's own counts, and turns its rows into named tuples."""

import collections
import ctypes
import os
import re
import weakref

from . import _lib
from ._common import error_from, id_buffer, id_space, np
from ._reader import RUN_BEGIN, RUN_END
from ._trace import BATCH, Trace, process_of

BY = tuple(_lib.dcfg_count_by_name(k).decode() for k in range(_lib.COUNT_KINDS))
_MAX = (1 << 64) - 1

Row = collections.namedtuple("Row", "key executions instructions")
# The public row of --by loop: the columns of dcfg-count's loop table but the share.
LoopRow = collections.namedtuple(
    "LoopRow", "head routine name source depth innermost static executions iterations "
               "instructions")


def count(trace, dcfg, by="edge", batch=BATCH):
    """Counts the edges of TRACE (a path or a Trace) by BY, one of "edge",
    "block", "routine", "loop", "image", "type", "thread", "line" and
    "file", with the loaded DCFG, as `dcfg-expand --runs TRACE | dcfg-count
    --dcfg DCFG --by BY`.  A run of the trace counts as often as it repeats,
    without being written out.

    Returns {pid: rows} in the order of the trace, each process's rows
    sorted as dcfg-count sorts them (the most instructions first, then by
    name, then by key; by "thread", by thread id).  A row is Row(key, executions, instructions), but by
    "loop", a LoopRow of every column of dcfg-count's loop table but the
    share.  The key is the edge id, the block's node id, the routine's
    ENTRY_NODE_ID, the THREAD_ID; the image's file name ("-": none), the
    edge type's name; (file, line) by "line" and (file, None) by "file",
    where code on no line is (its image's file name, "-").  Names are the
    file's text: escape() gives what dcfg-count writes, and code_name() the
    routine's name column.

    The library's counter counts (dcfg_counter_new(3)), with dcfg-count's
    rules.  An edge that is not among its process's edges in the DCFG, a
    process not in it, a DCFG loaded without a table BY reads, or a count
    past 2^64 - 1 (dcfg-count's "a count does not fit in 64 bits") raises
    Error.  Memory is a few words per edge and block of the DCFG, whatever
    the trace's length.
    """
    kind = _kind(by)
    if not isinstance(trace, Trace):
        trace = Trace(trace)
    name = "<stdin>" if trace.path in (None, "-") else os.fsdecode(trace.path)
    buf = id_buffer(batch)
    tables = {}
    for proc in trace.processes():
        process_of(dcfg, proc.pid, trace.path)
        counter = _Counter(dcfg, proc.pid, kind, name)
        for t in proc.threads():
            counter.call(_lib.dcfg_counter_thread, t.tid)
            for chunk in t.chunks():
                _add_chunk(counter, chunk, buf)
        tables[proc.pid] = counter.rows(by)
    return tables


def count_dcfg(dcfg, by="edge"):
    """The tables of count() from the counts stored in the DCFG (kept with
    KEEP_EDGE_COUNTS), without a trace, as `dcfg-count --from-dcfg --by
    BY`: each edge's executions are its total over the threads; by
    "thread", each thread's are its own COUNT_PER_THREAD.  {pid: rows} in
    the order of the DCFG."""
    kind = _kind(by)
    procs = dcfg.processes
    tables = {}
    for p in range(len(procs)):
        pid = int(procs[p]["pid"]) if np is not None else procs[p].pid
        counter = _Counter(dcfg, pid, kind, getattr(dcfg, "path", ""))
        counter.call(_lib.dcfg_counter_add_dcfg)
        tables[pid] = counter.rows(by)
    return tables


def _kind(by):
    if by not in BY:
        raise ValueError("by must be one of %s" % ", ".join(BY))
    return BY.index(by)


class _Counter:
    """A library counter of one process of a loaded DCFG; freed with it."""

    def __init__(self, dcfg, pid, kind, name):
        self._name = os.fsencode(name)      # the counter keeps the pointer
        self._owner = dcfg._owner           # and points into the DCFG
        self.err = _lib.ErrorStruct()
        self.dcfg, self.pid = dcfg, pid
        self.h = _lib.dcfg_counter_new(dcfg._h(), dcfg._process(pid), kind, self._name,
                                       ctypes.byref(self.err))
        if not self.h:
            raise error_from(self.err)
        weakref.finalize(self, _lib.dcfg_counter_free, self.h)

    def call(self, fn, *args):
        """FN(counter, ARGS..., error): its code, or Error when it failed."""
        rc = fn(self.h, *args, ctypes.byref(self.err))
        if rc < 0 and rc != _lib.COUNT_NO_EDGE:
            raise error_from(self.err)
        return rc

    def rows(self, by):
        """The table, sorted as dcfg-count sorts it, as the package's rows."""
        self.call(_lib.dcfg_counter_begin, 0, None)
        out, make = [], _ROWS[by]
        while True:
            r = _lib.dcfg_counter_next(self.h)
            if not r:
                return out
            out.append(make(r.contents))


def _add_chunk(counter, chunk, buf):
    """Counts the chunk's edges, each edge of a run as often as the runs
    around it repeat it."""
    addr = id_space(buf, 0)[0]
    weights = [1]
    while True:
        n, kind, times = chunk.read_runs_into(buf)
        if n:
            _add(counter, chunk, buf, addr, n, weights[-1])
        if kind == RUN_BEGIN:
            weights.append(weights[-1] * times)
        elif kind == RUN_END:
            weights.pop()
        elif n == 0:
            return


def _add(counter, chunk, buf, addr, n, weight):
    """Counts the N edges of BUF (at ADDR) WEIGHT times each: a weight past
    2^64 - 1 as 2^64 - 1 times and once more, so that the counter refuses
    the tables as dcfg-count does.  An edge not in the DCFG fails the
    chunk at its place."""
    for part in (weight,) if weight <= _MAX else (_MAX, 1):
        if counter.call(_lib.dcfg_counter_add, addr, n, part) == _lib.COUNT_NO_EDGE:
            instrs = (ctypes.c_uint64 * n)()
            bad = _lib.dcfg_edge_instrs(counter.dcfg._h(), counter.dcfg._process(counter.pid),
                                        addr, n, instrs)
            chunk.fail(chunk.emitted - n + bad, "edge id %d is not in the DCFG" % buf[bad])


# ---- the rows of each kind, from the library's (struct dcfg_counted_row) ----

_ESCAPED = re.compile(rb"\\(x[0-9a-f]{2}|[\\tnr])")
_SHORT = {b"\\": b"\\", b"t": b"\t", b"n": b"\n", b"r": b"\r"}


def _unescaped(cell):
    """A cell of the table, escaped as dcfg-stream(5) says, as the file's text."""
    b = _ESCAPED.sub(lambda m: _SHORT.get(m.group(1)) or bytes((int(m.group(1)[1:], 16),)), cell)
    return b.decode("utf-8", "surrogateescape")


def _text(b):
    return b.decode("utf-8", "surrogateescape")


def _numbered(r):
    return Row(r.id, r.executions, r.instructions)


def _named(r):
    return Row(_text(r.name), r.executions, r.instructions)


def _line(r):
    return Row((_text(r.name), "-" if r.id == _lib.COUNT_NO_LINE else r.id),
               r.executions, r.instructions)


def _file(r):
    return Row((_text(r.name), "-" if r.id == _lib.COUNT_NO_LINE else None),
               r.executions, r.instructions)


def _loop(r):
    routine, name, source, depth, innermost, static = r.between[:6]
    if source != b"-":
        file, _, line = source.rpartition(b":")
        source = (_unescaped(file), int(line))
    else:
        source = None
    return LoopRow(r.id, int(routine), _unescaped(name), source, int(depth), innermost == b"yes",
                   int(static), r.executions, r.iterations, r.instructions)


_ROWS = {"edge": _numbered, "block": _numbered, "routine": _numbered, "thread": _numbered,
         "image": _named, "type": _named, "line": _line, "file": _file, "loop": _loop}
