"""The counting of dcfg-count --by edge, block, routine and thread, over a
trace's edges (dcfg-count(1), TABLES: the same numbers, the same units)."""

from . import _edgemap
from ._common import Error, np
from ._model import NONE
from ._trace import BATCH, Trace

BY = ("edge", "block", "routine", "thread")


def count(trace, dcfg, by="edge", batch=BATCH):
    """Counts the edges of TRACE (a path or a Trace) by BY, one of "edge",
    "block", "routine" and "thread", with the loaded DCFG (blocks, routines
    and edges kept), as `dcfg-expand TRACE | dcfg-count --dcfg DCFG --by BY`.

    Returns {pid: rows} in the order of the trace, each process's rows
    (key, executions, instructions) sorted as dcfg-count sorts them (the
    most instructions first, then by key).  The key is the edge id, the
    block's node id, the routine's ENTRY_NODE_ID or the THREAD_ID.  An
    edge that is not among its process's edges in the DCFG, or a process
    not in it, raises Error.  Memory is the DCFG's edges and blocks,
    whatever the trace's length.
    """
    if by not in BY:
        raise ValueError("by must be one of %s" % ", ".join(BY))
    if not isinstance(trace, Trace):
        trace = Trace(trace)
    tables = {}
    for proc in trace.processes():
        emap = _edgemap.for_process(dcfg, proc.pid, trace.path)
        total = _zeros(emap.n_edges)
        threads = []
        for t in proc.threads():
            edges, instrs = 0, 0
            for chunk in t.chunks():
                e, i = _chunk_counts(chunk, emap, total, batch)
                edges, instrs = edges + e, instrs + i
            threads.append((t.tid, edges, instrs))
        if by == "thread":
            rows = threads
        else:
            rows = _ROWS[by](dcfg, emap, total)
        rows.sort(key=lambda r: (-r[2], r[0]))
        tables[proc.pid] = rows
    return tables


def count_dcfg(dcfg, by="edge"):
    """The tables of count() from the counts stored in the DCFG (kept with
    KEEP_EDGE_COUNTS), without a trace, as `dcfg-count --from-dcfg --by
    BY`: each edge's executions are its total over the threads; by
    "thread", each thread's are its own COUNT_PER_THREAD.  {pid: rows} in
    the order of the DCFG."""
    if by not in BY:
        raise ValueError("by must be one of %s" % ", ".join(BY))
    tables = {}
    procs = dcfg.processes
    for i in range(len(procs)):
        pid = int(procs[i]["pid"]) if np is not None else procs[i].pid
        emap = _edgemap.EdgeMap(dcfg, i)
        first = emap.edge_first
        edges = dcfg.edges[first:first + emap.n_edges]
        if by != "thread":
            total = edges["total"].copy() if np is not None else [e.total for e in edges]
            rows = _ROWS[by](dcfg, emap, total)
        else:
            rows = _thread_rows_from_dcfg(dcfg, emap, edges, procs[i])
        rows.sort(key=lambda r: (-r[2], r[0]))
        tables[pid] = rows
    return tables


def _thread_rows_from_dcfg(dcfg, emap, edges, proc):
    """Threads as many as the longest COUNT_PER_THREAD, as dcfg-count's."""
    counts, src = dcfg.counts, _ints(emap.source_instrs)
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
    return [(t, execs[t], instrs[t]) for t in range(len(execs))]


def _zeros(n):
    """N zero counters."""
    return np.zeros(n, dtype=np.uint64) if np is not None else [0] * n


def _chunk_counts(chunk, emap, total, batch):
    """Adds the chunk's executions per edge into TOTAL; (edges, instructions)."""
    edges = instrs = done = 0
    for ids in chunk.edges(batch):
        idx = emap.index(ids)
        bad = _edgemap._first_negative(idx)
        if bad is not None:
            chunk.fail(done + bad, "edge id %d is not in the DCFG" % ids[bad])
        done += len(ids)
        if np is not None:
            here = np.bincount(idx, minlength=emap.n_edges).astype(np.uint64)
            total += here
            instrs += int(np.dot(here, emap.source_instrs))
        else:
            src = emap.source_instrs
            for i in idx:
                total[i] += 1
                instrs += src[i]
        edges += len(ids)
    return edges, instrs


def _ints(a):
    """A column as a list of Python ints (exact, never wrapping)."""
    return a.tolist() if np is not None else list(a)


def _edge_rows(dcfg, emap, total):
    """--by edge: the edge id; its executions; times its source's NUM_INSTRS."""
    ids, src = _ints(emap.edge_ids), _ints(emap.source_instrs)
    return [(ids[e], x, x * src[e]) for e, x in enumerate(_ints(total)) if x]


def _block_entries(emap, total):
    """Each block's entries: the executions of the edges into it."""
    entries = [0] * len(emap.block_nodes)
    for e, x in enumerate(_ints(total)):
        b = int(emap.target_block[e])
        if x and b >= 0:
            entries[b] += x
    return entries


def _block_rows(dcfg, emap, total):
    """--by block: the node id; its entries; times its NUM_INSTRS."""
    nodes, ninstr = _ints(emap.block_nodes), _ints(emap.block_instrs)
    return [(nodes[b], x, x * ninstr[b]) for b, x in enumerate(_block_entries(emap, total)) if x]


def _routine_rows(dcfg, emap, total):
    """--by routine: the entry node; the entries from outside the routine;
    the block instructions of its blocks."""
    entries = _block_entries(emap, total)
    routine, ninstr = _ints(emap.block_routine), _ints(emap.block_instrs)
    nodes = _ints(emap.block_nodes)
    if np is not None:
        entry_node = dcfg.routines["entry_node_id"].tolist()
    else:
        entry_node = [r.entry_node_id for r in dcfg.routines]
    src_b, tgt_b = _ints(emap.source_block), _ints(emap.target_block)
    calls, instrs = {}, {}
    for e, x in enumerate(_ints(total)):
        tb, sb = tgt_b[e], src_b[e]
        if not x or tb < 0 or routine[tb] == NONE:
            continue
        r = routine[tb]
        if entry_node[r] == nodes[tb] and (sb < 0 or routine[sb] != r):
            calls[r] = calls.get(r, 0) + x
    for b, x in enumerate(entries):
        if x and routine[b] != NONE:
            instrs[routine[b]] = instrs.get(routine[b], 0) + x * ninstr[b]
    return [(entry_node[r], calls.get(r, 0), instrs.get(r, 0))
            for r in set(calls) | set(instrs) if calls.get(r, 0) or instrs.get(r, 0)]


_ROWS = {"edge": _edge_rows, "block": _block_rows, "routine": _routine_rows}
