"""Passes the lookups ids, offsets and addresses that do not fit their C
types (past 2^32 - 1 or 2^64 - 1, or negative), each beside the same
lookup of a value that fits, and writes both answers.
Usage: wide.py DCFG"""

import sys

import dcfg

d = dcfg.load(sys.argv[1])
p = d.processes[0]
pid = int(p["pid"]) if dcfg.HAVE_NUMPY else p.pid
e, b = d.edges[5], d.blocks[5]
if dcfg.HAVE_NUMPY:
    eid, nid, addr, name = int(e["id"]), int(b["node_id"]), int(b["addr"]), int(d.file_names[0]["name"])
    fid, special = int(d.file_names[0]["id"]), int(d.special_nodes[0]["id"])
else:
    eid, nid, addr, name, fid = e.id, b.node_id, b.addr, d.file_names[0].name, d.file_names[0].id
    special = d.special_nodes[0].id
U32, U64 = 1 << 32, 1 << 64


def show(label, f, good, bad):
    """LABEL, F(GOOD) and F(BAD) (or the KeyError it raises)."""
    out = []
    for v in (good, bad):
        try:
            out.append(repr(f(v)))
        except KeyError:
            out.append("KeyError")
    print(label, *out)


show("edge", lambda i: d.edge(pid, i), eid, eid + U32)
show("block", lambda i: d.block(pid, i), nid, nid + U32)
show("block -", lambda i: d.block(pid, i), nid, nid - U32)
show("block_at", lambda a: d.block_at(pid, a), addr, addr + U64)
show("symbol_at", lambda a: d.symbol_at(pid, a) is not None, addr, addr + U64)
show("source_at", lambda a: d.source_at(pid, a) is not None, addr, addr - U64)
show("process", d.process, pid, pid + U64)
show("file_name", lambda i: d.file_name(i) is not None, fid, fid + U32)
show("special_node", lambda i: d.special_node(i) != dcfg.SPECIAL_NONE, special, special + U32)
show("string", lambda o: d.string(o) != "", name, name + U32)
