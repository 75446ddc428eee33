"""The rows of each kind of dcfg-count --by, from one process's executions
per edge (lib/count/count_table.c and count_source.c: the same rules, the
same numbers).  Counts are Python ints, which never wrap: _count checks
them against 2^64 - 1 as dcfg-count does."""

import collections

from ._model import NONE
from ._names import column, raw

NO_LINE = (1 << 64) - 1   # DCFG_COUNT_NO_LINE: the key of code on no line, sorted last

# One row: KEY and NAME (bytes, or None for numbered rows) sort and join it,
# as dcfg-count's struct dcfg_count_row; SHOWN is the key the caller gets;
# LOOP the loop's index for loop rows.
Raw = collections.namedtuple("Raw", "key name executions iterations instructions shown loop")


def _raw(key, name, x, instrs, shown, iterations=0, loop=None):
    return Raw(key, name, x, iterations, instrs, shown, loop)


class Process:
    """What every kind reads of one process: its executions per edge (X),
    its blocks' entries, and the tables as lists."""

    def __init__(self, dcfg, emap, pid, executions):
        self.d, self.emap, self.pid, self.x = dcfg, emap, pid, executions
        self.src_block = _ints(emap.source_block)
        self.tgt_block = _ints(emap.target_block)
        self.src_instrs = _ints(emap.source_instrs)
        self.block_instrs = _ints(emap.block_instrs)
        self.block_nodes = _ints(emap.block_nodes)
        self.entries = [0] * len(self.block_nodes)
        for e, x in enumerate(executions):
            b = self.tgt_block[e]
            if x and b >= 0:
                self.entries[b] += x
        self._by_node = None

    def block_of(self, node):
        """The local index of the block NODE, or -1."""
        if self._by_node is None:
            self._by_node = {}
            for b, n in enumerate(self.block_nodes):
                self._by_node.setdefault(n, b)
        return self._by_node.get(node, -1)

    def ran(self):
        """(local edge, executions) of the edges that ran."""
        return ((e, x) for e, x in enumerate(self.x) if x)


def _ints(a):
    return a.tolist() if hasattr(a, "tolist") else list(a)


def edge_rows(p):
    """--by edge: the edge id; its executions; times its source's NUM_INSTRS."""
    ids = _ints(p.emap.edge_ids)
    return [_raw(ids[e], None, x, x * p.src_instrs[e], ids[e]) for e, x in p.ran()]


def block_rows(p):
    """--by block: the node id; its entries; times its NUM_INSTRS."""
    return [_raw(p.block_nodes[b], None, x, x * p.block_instrs[b], p.block_nodes[b])
            for b, x in enumerate(p.entries) if x]


def routine_rows(p):
    """--by routine: the entry node; the entries from outside the routine;
    the block instructions of its blocks."""
    routine = _ints(p.emap.block_routine)
    entry_node = column(p.d.routines, "entry_node_id")
    calls, instrs = {}, {}
    for e, x in p.ran():
        tb, sb = p.tgt_block[e], p.src_block[e]
        if tb < 0 or routine[tb] == NONE:
            continue
        r = routine[tb]
        if entry_node[r] == p.block_nodes[tb] and (sb < 0 or routine[sb] != r):
            calls[r] = calls.get(r, 0) + x
    for b, x in enumerate(p.entries):
        if x and routine[b] != NONE:
            instrs[routine[b]] = instrs.get(routine[b], 0) + x * p.block_instrs[b]
    return [_raw(entry_node[r], None, calls.get(r, 0), instrs.get(r, 0), entry_node[r])
            for r in set(calls) | set(instrs) if calls.get(r, 0) or instrs.get(r, 0)]


def image_rows(p):
    """--by image: the image's file name ("-": none); its blocks' entries
    and instructions.  Images of one name are one row (joined later)."""
    block_image = _ints(p.emap.block_image)
    fids = column(p.d.images, "file_name_id")
    groups = {}
    for b, x in enumerate(p.entries):
        if x:
            v = groups.setdefault(block_image[b], [0, 0])
            v[0] += x
            v[1] += x * p.block_instrs[b]
    rows = []
    for im, (x, instrs) in groups.items():
        name = p.d.file_name(fids[im]) if im < len(fids) else None
        name = raw("-" if name is None else name)
        rows.append(_raw(0, name, x, instrs, name))
    return rows


def type_rows(p):
    """--by type: the edge type's name ("UNDEFINED" when EDGE_TYPES has
    not its id); the executions of its edges and their instructions."""
    type_ids = _ints(p.emap.edge_type_ids)
    index = {}
    for i, t in enumerate(column(p.d.edge_types, "id")):
        index.setdefault(t, i)
    names = column(p.d.edge_types, "name")
    groups = {}
    for e, x in p.ran():
        v = groups.setdefault(index.get(type_ids[e], -1), [0, 0])
        v[0] += x
        v[1] += x * p.src_instrs[e]
    rows = []
    for ty, (x, instrs) in groups.items():
        name = raw(p.d.string(names[ty])) if ty >= 0 else b"UNDEFINED"
        rows.append(_raw(0, name, x, instrs, name))
    return rows


def thread_rows(threads):
    """--by thread: the THREAD_ID; its edges; their sources' NUM_INSTRS."""
    return [_raw(tid, None, edges, instrs, tid) for tid, (edges, instrs) in threads.items()]
