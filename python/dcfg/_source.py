"""The kinds of dcfg-count --by that say where code is: loops, source
lines and files (lib/count/count_source.c, lib/dcfg/lines.c)."""

import bisect
import collections

from ._common import np
from ._kinds import NO_LINE, _ints, _raw
from ._model import NONE
from ._names import column, names_of, raw

_MAX = (1 << 64) - 1
_NESTING = 64      # DCFG_ADDR_NESTING: how far records may nest

Member = collections.namedtuple("Member", "loop is_node is_head")

# The public row of --by loop: the columns of dcfg-count's loop table but the share.
LoopRow = collections.namedtuple(
    "LoopRow", "head routine name source depth innermost static executions iterations "
               "instructions")


def _range(r):
    return int(r[0]), int(r[1])


class Loops:
    """The loops of one process: each block's memberships, and each loop's
    depth, innermost flag and static instructions (count_source.c's
    index_loops: nesting from the nodes, not PARENT_LOOP_HEAD_NODE_ID)."""

    def __init__(self, p, process_index):
        d = p.d
        node_ids = d.node_ids
        heads = column(d.loops, "head_node_id")
        self.heads = heads
        loop_routine = column(d.loops, "routine")
        nodes, backs = column(d.loops, "nodes"), column(d.loops, "back_edge_sources")
        routine_image = column(d.routines, "image")
        image_process = column(d.images, "process")
        self.loops = [li for li in range(len(heads))
                      if loop_routine[li] < len(routine_image) and
                      routine_image[loop_routine[li]] < len(image_process) and
                      image_process[routine_image[loop_routine[li]]] == process_index]
        self.nodes = {li: [int(node_ids[i]) for i in range(*_span(nodes[li]))] for li in self.loops}
        self.backs = {li: {int(node_ids[i]) for i in range(*_span(backs[li]))} for li in self.loops}
        self.members = collections.defaultdict(list)     # local block -> [Member]
        for li in self.loops:
            for n in self.nodes[li]:
                b = p.block_of(n)
                if b >= 0:
                    self.members[b].append(Member(li, True, False))
            b = p.block_of(heads[li])
            if b >= 0:
                self.members[b].append(Member(li, False, True))
        self.depth, self.inner, self.static = {}, {li: True for li in self.loops}, {}
        for li in self.loops:
            self.depth[li] = 1
            self.static[li] = sum(p.block_instrs[b] for b in
                                  (p.block_of(n) for n in self.nodes[li]) if b >= 0)
            h = p.block_of(heads[li])
            if h < 0:
                continue
            for m in self.members[h]:
                if m.is_node and m.loop != li and heads[m.loop] != heads[li]:
                    self.depth[li] += 1
                    self.inner[m.loop] = False

    def in_loop(self, b, li):
        """Is local block B among the nodes of loop LI?"""
        return any(m.loop == li and m.is_node for m in self.members[b])


def _span(r):
    first, count = _range(r)
    return (0, 0) if first == NONE else (first, first + count)


def loop_rows(p, process_index):
    """--by loop: per loop, the entries into its head from outside it, the
    iterations (executions of edges from its back-edge sources to the
    head), and the block instructions of its nodes."""
    lp = Loops(p, process_index)
    src_nodes = _ints(_field_of(p, "source"))
    v = collections.defaultdict(lambda: [0, 0, 0])
    for b, x in enumerate(p.entries):
        if x:
            for m in lp.members[b]:
                if m.is_node:
                    v[m.loop][2] += x * p.block_instrs[b]
    for e, x in p.ran():
        b = p.tgt_block[e]
        if b < 0:
            continue
        sb, source = p.src_block[e], src_nodes[e]
        for m in lp.members[b]:
            if not m.is_head:
                continue
            if source in lp.backs[m.loop]:
                v[m.loop][1] += x
            elif not (lp.in_loop(sb, m.loop) if sb >= 0 else source in lp.nodes[m.loop]):
                v[m.loop][0] += x
    rows = []
    for li, (entries, iterations, instrs) in v.items():
        if entries or iterations or instrs:
            rows.append(_raw(lp.heads[li], None, entries, instrs, lp.heads[li],
                             iterations=iterations, loop=li))
    return rows, lp


def _field_of(p, name):
    first, n = p.emap.edge_first, p.emap.n_edges
    edges = p.d.edges[first:first + n]
    return edges[name] if np is not None else [getattr(e, name) for e in edges]


def loop_row(p, lp, r):
    """The public LoopRow of raw loop row R."""
    d, li = p.d, r.loop
    routine = int(column(d.loops, "routine")[li])
    entry = int(column(d.routines, "entry_node_id")[routine])
    names = names_of(d, p.pid)
    addrs = column(d.blocks, "addr")
    bfirst = p.emap.block_first
    eb = p.block_of(entry)
    name = names.at(addrs[bfirst + eb]).decode("utf-8", "surrogateescape") if eb >= 0 else "-"
    hb = p.block_of(lp.heads[li])
    source = None
    if hb >= 0:
        s = d.source_at(p.pid, addrs[bfirst + hb])
        if s is not None:
            rec = d.source_lines[s]
            fid, line = (int(rec["file_name_id"]), int(rec["line"])) if np is not None \
                else (rec.file_name_id, rec.line)
            f = d.file_name(fid)
            source = ("-" if f is None else f, line)
    return LoopRow(lp.heads[li], entry, name, source, lp.depth[li], lp.inner[li],
                   lp.static[li], r.executions, r.iterations, r.instructions)


# ---- lines and files ----

class SourceIndex:
    """A process's SOURCE_DATA records by address (index.c's addr_index):
    (addr, end, record) sorted, a zero-sized record covering its own address."""

    def __init__(self, d, process_index):
        p = d.processes[process_index]
        first, n = _range(p["source_lines"] if np is not None else p.source_lines)
        recs = d.source_lines[first:first + n]
        addr, size = column(recs, "addr"), column(recs, "size")
        ix = []
        for i in range(n):
            a, s = addr[i], size[i]
            end = (a + (1 if s == 0 else s)) & _MAX
            ix.append((a, _MAX if end <= a else end, first + i))
        ix.sort(key=lambda t: (t[0], t[2]))
        self.ix = ix
        self.starts = [t[0] for t in ix]
        self.num_instrs = column(d.source_lines, "num_instrs")

    def _first(self, addr):
        """The first record that may overlap ADDR (lines.c's first_overlap)."""
        i = first = bisect.bisect_right(self.starts, addr)
        steps = 0
        while i > 0 and steps < _NESTING:
            if addr < self.ix[i - 1][1]:
                first = i - 1
            i, steps = i - 1, steps + 1
        return first

    def _pieces(self, addr, end):
        """(from, to, record or None, NUM_INSTRS if the range lies wholly in
        the block else None): the block cut at range boundaries (lines.c's walk)."""
        ix, i, cursor = self.ix, self._first(addr), addr
        while cursor < end:
            while i < len(ix) and ix[i][1] <= cursor:
                i += 1
            piece = (cursor, end, None, None)
            if i < len(ix) and ix[i][0] < end:
                a, e, rec = ix[i]
                if a > cursor:
                    piece = (cursor, a, None, None)
                else:
                    i += 1
                    whole = a == cursor and a >= addr and e <= end
                    piece = (cursor, min(e, end), rec, self.num_instrs[rec] if whole else None)
            yield piece
            cursor = piece[1]

    def block_lines(self, addr, size, last_offset, num_instrs):
        """[(record or None, instructions)]: how a block's NUM_INSTRS fall on
        the records that overlap it, by the rule of every route (lines.h,
        dcfg(7) "Source lines of a block"), as dcfg_block_lines gives them:
        the pieces on a line in address order, then those on no line at once."""
        span = size if size > last_offset else min(last_offset + 1, _MAX)
        end = min(addr + span, _MAX)
        last = addr + last_offset if addr + last_offset < end else end - 1
        pieces = [t for t in self._pieces(addr, end) if t[0] <= last]
        claimed, unknown, share_bytes, at_last_bytes = 0, 0, 0, 0
        for a, e, _, whole in pieces:
            if whole is not None:
                claimed = min(claimed + whole, _MAX)
            elif a == last:
                unknown, at_last_bytes = unknown + 1, e - a
            else:
                unknown, share_bytes = unknown + 1, share_bytes + e - a
        last_shares = share_bytes == 0 and at_last_bytes > 0
        if last_shares:
            share_bytes = at_last_bytes
        extra = max(num_instrs - claimed - unknown, 0)
        left, shared, given, out, none = num_instrs, 0, 0, [], 0
        for a, e, rec, whole in pieces:
            if left == 0:
                break
            n = 1 if whole is None else whole
            if whole is None and (a != last or last_shares):
                shared += e - a
                q, r = divmod(extra * shared, share_bytes)
                upto = q + (1 if 2 * r >= share_bytes else 0)
                n, given = n + upto - given, upto
            n = left if e > last else min(n, left - 1)
            left -= n
            if n and rec is None:
                none += n
            elif n:
                out.append((rec, n))
        if none:
            out.append((None, none))
        return out


def line_rows(p, process_index, by):
    """--by line or file: each block's instructions on its lines (or files),
    its entries once per line it adds to in a row; code on no line on a row
    of its image's file name."""
    d = p.d
    sx = SourceIndex(d, process_index)
    bfirst = p.emap.block_first
    addrs, sizes = column(d.blocks, "addr"), column(d.blocks, "size")
    lasts = column(d.blocks, "last_instr_offset")
    block_image = _ints(p.emap.block_image)
    rec_file, rec_line = column(d.source_lines, "file_name_id"), column(d.source_lines, "line")
    file_index = {}
    for i, f in enumerate(column(d.file_names, "id")):
        file_index.setdefault(f, i)
    image_fids = column(d.images, "file_name_id")
    groups = {}
    for b, x in enumerate(p.entries):
        if not x:
            continue
        last = None
        for rec, n in sx.block_lines(addrs[bfirst + b], sizes[bfirst + b],
                                     lasts[bfirst + b], p.block_instrs[b]):
            if rec is None:
                g = ("image", block_image[b])
            elif by == "line":
                g = ("line", rec_file[rec], rec_line[rec])
            else:
                g = ("file", file_index.get(rec_file[rec], -1))
            v = groups.setdefault(g, [0, 0])
            if g != last:
                v[0] += x
            v[1] += x * n
            last = g
    rows = []
    names = column(d.file_names, "name")
    for g, (x, instrs) in groups.items():
        if not (x or instrs):
            continue
        if g[0] == "image":
            f = d.file_name(image_fids[g[1]]) if g[1] < len(image_fids) else None
            name, key, shown = raw("-" if f is None else f), NO_LINE, "-"
        elif g[0] == "line":
            f = d.file_name(g[1])
            name, key, shown = raw("-" if f is None else f), g[2], g[2]
        else:
            name, key, shown = (raw(d.string(names[g[1]])) if g[1] >= 0 else b"-"), 0, None
        rows.append(_raw(key, name, x, instrs, (name, shown)))
    return rows
