#!/usr/bin/env python3
"""renumber-dcfg: the same program with sparse ids reaching 2^31 - 1.

usage: renumber-dcfg.py DCFG STREAM OUT-DCFG OUT-STREAM

Writes a copy of DCFG (JSON, plain, gzip or bzip2) whose basic blocks'
node ids are spread, in their order, over [0, 2^31 - 1], the largest
exactly 2^31 - 1, and whose edge ids are spread so too; and a copy of
the edge stream (dcfg-stream(5) version 1 or 2) with each data line's
edge id renumbered the same way. Special nodes are numbered 1, 2, ...,
below the blocks. Nothing else changes: the program, its traces'
order, its addresses and counts are the same, so a profile of the copy
differs from one of the original only where node or edge ids show.
The stream is read a line at a time (it may be "/dev/stdin"), so that
one of 10^8 edges takes no more memory than one of ten.

Every column of every table whose name ends in NODE_ID or NODE_IDS (the
edges' sources and targets, routines' entries, exits and dominators,
loops' heads, back edges, nodes and parents) is renumbered, and every
EDGE_ID column; a table is a list whose first row is a list of column
names (the DCFG specification, section 1.2).
"""
import bz2
import gzip
import json
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from profile_model import read_bytes

TOP = 2**31 - 1


def is_table(v):
    return (isinstance(v, list) and v and isinstance(v[0], list) and v[0]
            and all(isinstance(c, str) for c in v[0]))


def walk(v, visit):
    """Calls VISIT(table) on every table inside V, outermost first."""
    if is_table(v):
        visit(v)
    if isinstance(v, list):
        for x in v:
            walk(x, visit)
    elif isinstance(v, dict):
        for x in v.values():
            walk(x, visit)


def spread(ids, floor):
    """IDS (sorted) mapped in order onto (FLOOR, TOP], the last onto TOP,
    as far apart as they fit."""
    step = (TOP - floor) // (len(ids) + 1)
    return {old: TOP - (len(ids) - 1 - i) * step for i, old in enumerate(ids)}


def open_stream(path):
    """PATH as a binary file of lines, decompressed as read_bytes would."""
    f = open(path, "rb")
    magic = f.peek(3)[:3]
    if magic[:2] == b"\x1f\x8b":
        return gzip.open(f)
    if magic == b"BZh":
        return bz2.open(f)
    return f


def main():
    if len(sys.argv) != 5:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    dcfg = json.loads(read_bytes(sys.argv[1]).decode("utf-8", "surrogateescape"))
    blocks, edges = set(), set()

    def collect(t):
        head = t[0]
        if "NODE_ID" in head and "ADDR_OFFSET" in head:    # BASIC_BLOCKS
            blocks.update(r[head.index("NODE_ID")] for r in t[1:])
        if "EDGE_ID" in head:
            edges.update(r[head.index("EDGE_ID")] for r in t[1:])
    walk(dcfg, collect)
    specials = sorted(r[0] for r in dcfg["SPECIAL_NODES"][1:])
    node = spread(sorted(blocks), len(specials))
    node.update((old, k + 1) for k, old in enumerate(specials))
    edge = spread(sorted(edges), 0)

    def renumber(t):
        for k, name in enumerate(t[0]):
            m = node if name.endswith("NODE_ID") or name.endswith("NODE_IDS") else \
                edge if name == "EDGE_ID" else None
            if m is None:
                continue
            for r in t[1:]:
                if k < len(r):   # a row may leave out its last columns
                    r[k] = [m.get(x, x) for x in r[k]] if isinstance(r[k], list) else m.get(r[k], r[k])
    walk(dcfg, renumber)
    with open(sys.argv[3], "w") as f:
        json.dump(dcfg, f, ensure_ascii=False)
        f.write("\n")
    with open_stream(sys.argv[2]) as src, \
            open(sys.argv[4], "w", encoding="utf-8", errors="surrogateescape") as f:
        for raw in src:
            line = raw.decode("utf-8", "surrogateescape").rstrip("\n")
            if line and not line.startswith("#"):
                eid, tab, rest = line.partition("\t")
                line = "%d%s%s" % (edge[int(eid)], tab, rest)
            f.write(line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
