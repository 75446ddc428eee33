"""A process's edges by id, for windows and counting: each edge's index in
the process's edge range, its source block's NUM_INSTRS (0 when the source
is a special node or no block), and its target's block."""

from ._common import Error, np
from ._reader import fail_at_process

_MISSING = -1


def for_process(dcfg, pid, trace_path=None):
    """The EdgeMap of process PID of the loaded DCFG; Error when absent,
    placed at the PROCESS_ID of the trace at TRACE_PATH as dcfg-expand
    places it (without a place when the trace cannot be read again)."""
    try:
        return EdgeMap(dcfg, dcfg.process(pid))
    except KeyError:
        pass
    message = "process %d is not in the DCFG" % pid
    fail_at_process(trace_path, pid, message)
    raise Error(message)


def _field(table, name, first, count):
    """Column NAME of the records FIRST to FIRST + COUNT of TABLE."""
    if np is not None:
        return table[name][first:first + count]
    return [getattr(r, name) for r in table[first:first + count]]


class _IdIndex:
    """Local index of each id of IDS (the first of equal ids), -1 when absent."""

    def __init__(self, ids):
        self.n = len(ids)
        if np is None:
            self.map = {}
            for i, v in enumerate(ids):
                self.map.setdefault(v, i)
            return
        ids = np.asarray(ids, dtype=np.int64)
        top = int(ids.max()) + 1 if len(ids) else 0
        if top <= 8 * len(ids) + (1 << 16):
            self.dense = np.full(top, _MISSING, dtype=np.int64)
            self.dense[ids[::-1]] = np.arange(len(ids) - 1, -1, -1)
            self.sorted_ids = None
        else:
            self.dense = None
            order = np.argsort(ids, kind="stable")
            self.sorted_ids, self.order = ids[order], order

    def lookup(self, keys):
        """Indices of KEYS (a numpy array, or a list without numpy)."""
        if np is None:
            get = self.map.get
            return [get(k, _MISSING) for k in keys]
        keys = np.asarray(keys, dtype=np.int64)
        if self.dense is not None:
            inside = keys < len(self.dense)
            out = np.full(len(keys), _MISSING, dtype=np.int64)
            out[inside] = self.dense[keys[inside]]
            return out
        at = np.searchsorted(self.sorted_ids, keys)
        at_ok = np.minimum(at, max(len(self.sorted_ids) - 1, 0))
        found = (at < len(self.sorted_ids)) & (self.sorted_ids[at_ok] == keys) \
            if len(self.sorted_ids) else np.zeros(len(keys), dtype=bool)
        return np.where(found, self.order[at_ok] if len(self.order) else 0, _MISSING)


class EdgeMap:
    """The edges and blocks of one process (see the module's docstring)."""

    def __init__(self, dcfg, process_index):
        p = dcfg.processes[process_index]
        er, br = p["edges"] if np is not None else p.edges, \
            p["blocks"] if np is not None else p.blocks
        efirst, ecount = int(er[0]), int(er[1])
        bfirst, bcount = int(br[0]), int(br[1])
        self.edge_first, self.block_first = efirst, bfirst
        self.edge_ids = _field(dcfg.edges, "id", efirst, ecount)
        self.by_id = _IdIndex(self.edge_ids)
        self.block_nodes = _field(dcfg.blocks, "node_id", bfirst, bcount)
        self.block_instrs = _field(dcfg.blocks, "num_instrs", bfirst, bcount)
        self.block_routine = _field(dcfg.blocks, "routine", bfirst, bcount)
        self.block_image = _field(dcfg.blocks, "image", bfirst, bcount)
        self.edge_type_ids = _field(dcfg.edges, "type_id", efirst, ecount)
        by_node = _IdIndex(self.block_nodes)
        src = by_node.lookup(_field(dcfg.edges, "source", efirst, ecount))
        tgt = by_node.lookup(_field(dcfg.edges, "target", efirst, ecount))
        self.source_block, self.target_block = src, tgt
        if np is not None:
            instrs = np.zeros(ecount, dtype=np.uint64)
            has = src >= 0
            instrs[has] = self.block_instrs[src[has]]
        else:
            instrs = [self.block_instrs[b] if b >= 0 else 0 for b in src]
        self.source_instrs = instrs
        self.n_edges = ecount

    def index(self, ids):
        """Each id's index in the process's edge range (-1 when absent)."""
        return self.by_id.lookup(ids)

    def first_missing(self, ids):
        """The position of the first id of IDS not in the DCFG, or None."""
        return _first_negative(self.index(ids))

    def instrs(self, ids):
        """(the NUM_INSTRS of each edge's source, 0 for an absent edge;
        the position of the first absent edge or None)."""
        idx = self.index(ids)
        if np is not None:
            out = np.zeros(len(idx), dtype=np.uint64)
            ok = idx >= 0
            out[ok] = self.source_instrs[idx[ok]]
            return out, _first_negative(idx)
        return [self.source_instrs[i] if i >= 0 else 0 for i in idx], _first_negative(idx)


def _first_negative(idx):
    """The position of the first negative index, or None."""
    if np is not None:
        bad = np.flatnonzero(idx < 0)
        return int(bad[0]) if len(bad) else None
    for i, v in enumerate(idx):
        if v < 0:
            return i
    return None
