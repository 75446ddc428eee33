"""The counting of dcfg-count --by, over a trace's edges or the DCFG's own
counts (dcfg-count(1), TABLES: the same rows, numbers, units and order)."""

import collections
import os

from . import _edgemap, _kinds, _source
from ._common import Error, id_buffer, np
from ._model import NONE
from ._names import escape
from ._reader import RUN_BEGIN, RUN_END
from ._trace import BATCH, Trace

BY = ("edge", "block", "routine", "loop", "image", "type", "thread", "line", "file")
_MAX = (1 << 64) - 1
# the kinds made from blocks' entries, which an entry count past 2^64 - 1 spoils
_FROM_BLOCKS = ("block", "routine", "loop", "image", "line", "file")

Row = collections.namedtuple("Row", "key executions instructions")


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

    An edge that is not among its process's edges in the DCFG, a process
    not in it, or a count past 2^64 - 1 (dcfg-count's "a count does not fit
    in 64 bits") raises Error.  Memory is the DCFG's edges and blocks,
    whatever the trace's length.
    """
    _check_by(by)
    if not isinstance(trace, Trace):
        trace = Trace(trace)
    name = _display(trace.path)
    tables = {}
    for proc in trace.processes():
        emap = _edgemap.for_process(dcfg, proc.pid, trace.path)
        acc = _Executions(emap)
        threads = collections.OrderedDict()
        for t in proc.threads():
            edges, instrs = threads.get(t.tid, (0, 0))
            for chunk in t.chunks():
                e, i = _chunk_counts(chunk, emap, acc, batch)
                edges, instrs = edges + e, instrs + i
            threads[t.tid] = (edges, instrs)
        tables[proc.pid] = _table(dcfg, emap, proc.pid, by, acc.values(), threads, name)
    return tables


def count_dcfg(dcfg, by="edge"):
    """The tables of count() from the counts stored in the DCFG (kept with
    KEEP_EDGE_COUNTS), without a trace, as `dcfg-count --from-dcfg --by
    BY`: each edge's executions are its total over the threads; by
    "thread", each thread's are its own COUNT_PER_THREAD.  {pid: rows} in
    the order of the DCFG."""
    _check_by(by)
    tables = {}
    procs = dcfg.processes
    for i in range(len(procs)):
        pid = int(procs[i]["pid"]) if np is not None else procs[i].pid
        emap = _edgemap.EdgeMap(dcfg, i)
        first = emap.edge_first
        edges = dcfg.edges[first:first + emap.n_edges]
        total = edges["total"].tolist() if np is not None else [e.total for e in edges]
        threads = _threads_from_dcfg(dcfg, emap, edges) if by == "thread" else {}
        tables[pid] = _table(dcfg, emap, pid, by, total, threads, getattr(dcfg, "path", ""))
    return tables


def _check_by(by):
    if by not in BY:
        raise ValueError("by must be one of %s" % ", ".join(BY))


def _display(path):
    """The trace's name in messages, as the commands write it."""
    return "<stdin>" if path in (None, "-") else os.fsdecode(path)


def _threads_from_dcfg(dcfg, emap, edges):
    """Threads as many as the longest COUNT_PER_THREAD, as dcfg-count's."""
    counts, src = dcfg.counts, _kinds._ints(emap.source_instrs)
    execs, instrs = [], []
    for e, edge in enumerate(edges):
        first, n = (int(edge["counts"][0]), int(edge["counts"][1])) if np is not None \
            else tuple(edge.counts)
        if first == NONE:
            continue
        while len(execs) < n:
            execs.append(0)
            instrs.append(0)
        for t in range(n):
            x = int(counts[first + t])
            execs[t] += x
            instrs[t] += x * src[e]
    return collections.OrderedDict((t, (execs[t], instrs[t])) for t in range(len(execs)))


class _Executions:
    """Each edge's executions in a process.  With numpy, uint64 counters
    while the executions added in all stay below 2^64 (no counter can then
    wrap); past that, Python ints, exact."""

    def __init__(self, emap):
        self.n = emap.n_edges
        self.added = 0
        self.exact = None if np is not None else [0] * self.n
        self.total = np.zeros(self.n, dtype=np.uint64) if np is not None else None
        src = emap.source_instrs
        self.src = src
        self.src_list = _kinds._ints(src)
        self.max_src = max(self.src_list) if self.src_list else 0

    def add(self, idx, weight):
        """Adds WEIGHT executions of each edge of IDX (local indices);
        returns the instructions of one copy of IDX, exactly."""
        n = len(idx)
        self.added += n * weight
        if np is None:
            total, src, instrs = self.exact, self.src_list, 0
            for i in idx:
                total[i] += weight
                instrs += src[i]
            return instrs
        here = np.bincount(idx, minlength=self.n)
        if n * self.max_src <= _MAX:
            instrs = int(np.dot(here.astype(np.uint64), self.src))
        else:
            nz = np.flatnonzero(here)
            instrs = sum(int(here[i]) * self.src_list[i] for i in nz.tolist())
        if self.exact is None and self.added <= _MAX:
            h = here.astype(np.uint64)
            if weight != 1:
                h *= np.uint64(weight)
            self.total += h
            return instrs
        if self.exact is None:
            self.exact = self.total.tolist()
        for i in np.flatnonzero(here).tolist():
            self.exact[i] += int(here[i]) * weight
        return instrs

    def values(self):
        """The executions per edge, as Python ints."""
        return self.exact if self.exact is not None else self.total.tolist()


def _chunk_counts(chunk, emap, acc, batch):
    """Adds the chunk's executions per edge, each edge of a run as often as
    the runs around it repeat it; (edges, instructions) of the chunk."""
    buf = id_buffer(batch)
    weights = [1]
    edges = instrs = 0
    while True:
        n, kind, times = chunk.read_runs_into(buf)
        if n:
            ids = buf[:n]
            idx = emap.index(ids)
            bad = _edgemap._first_negative(idx)
            if bad is not None:
                chunk.fail(chunk.emitted - n + bad, "edge id %d is not in the DCFG" % ids[bad])
            w = weights[-1]
            instrs += w * acc.add(idx, w)
            edges += w * n
        if kind == RUN_BEGIN:
            weights.append(weights[-1] * times)
        elif kind == RUN_END:
            weights.pop()
        elif n == 0:
            return edges, instrs


def _table(dcfg, emap, pid, by, executions, threads, name):
    """The sorted rows of one process; Error when a count does not fit in
    64 bits, as dcfg-count refuses the table."""
    spoiled = False
    if by == "thread":
        spoiled = any(e > _MAX or i > _MAX for e, i in threads.values())
        rows = _kinds.thread_rows(threads)
    else:
        spoiled = any(x > _MAX for x in executions)
        p = _kinds.Process(dcfg, emap, pid, executions)
        if by in _FROM_BLOCKS:
            spoiled = spoiled or any(x > _MAX for x in p.entries)
        if by == "loop":
            # dcfg-count multiplies every block's entries by its NUM_INSTRS,
            # in a loop or not (count_source.c): a product past 2^64 - 1
            # refuses the loop table too
            spoiled = spoiled or any(x * n > _MAX for x, n in zip(p.entries, p.block_instrs))
        loops = None
        if by == "loop":
            rows, loops = _source.loop_rows(p, dcfg.process(pid))
        elif by in ("line", "file"):
            rows = _source.line_rows(p, dcfg.process(pid), by)
        else:
            rows = _ROWS[by](p)
    if rows and rows[0].name is not None:
        rows = _join_alike(rows)
    total = sum(r.instructions for r in rows)
    if spoiled or total > _MAX or \
            any(r.executions > _MAX or r.iterations > _MAX or r.instructions > _MAX for r in rows):
        raise Error("%s: process %d: a count does not fit in 64 bits" % (name, pid), name, 0, 0,
                    "process %d: a count does not fit in 64 bits" % pid)
    if by == "thread":   # by thread id, as dcfg-count(1) sorts its thread table
        rows.sort(key=lambda r: r.key)
    else:
        rows.sort(key=lambda r: (-r.instructions, b"" if r.name is None else
                                 escape(r.name).encode("utf-8", "surrogateescape"), r.key))
    if by == "loop":
        return [_source.loop_row(p, loops, r) for r in rows]
    return [Row(_shown(r.shown), r.executions, r.instructions) for r in rows]


def _shown(key):
    """The caller's key: names as str."""
    if isinstance(key, bytes):
        return key.decode("utf-8", "surrogateescape")
    if isinstance(key, tuple):
        return (key[0].decode("utf-8", "surrogateescape"), key[1])
    return key


def _join_alike(rows):
    """Rows of one name and key (two images of one file name) as one row."""
    joined = {}
    for r in rows:
        k = (r.name, r.key)
        if k in joined:
            j = joined[k]
            joined[k] = j._replace(executions=j.executions + r.executions,
                                   iterations=j.iterations + r.iterations,
                                   instructions=j.instructions + r.instructions)
        else:
            joined[k] = r
    return list(joined.values())


_ROWS = {"edge": _kinds.edge_rows, "block": _kinds.block_rows, "routine": _kinds.routine_rows,
         "image": _kinds.image_rows, "type": _kinds.type_rows}
