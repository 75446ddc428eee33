"""t/tools/lookup's queries answered with the dcfg Python package, in its
words, so that t/python.bats compares the two line for line:

    python3 lookup.py DCFG QUERIES

Queries, one a line: process PID, sizes, edge ID, block NODE, block-at
ADDR, symbol-at ADDR, source-at ADDR, image-of NODE, special NODE, file
ID.  The lookups go through the package's (DCFG.edge, .block, ...), the
answers are read from its tables."""

import sys

import dcfg


def rec(table, i):
    """Record I of a table as a dict, with or without numpy."""
    r = table[i]
    if dcfg.HAVE_NUMPY:
        return {k: (tuple(int(x) for x in r[k]) if r[k].shape == () and r.dtype[k].names
                    else int(r[k])) for k in r.dtype.names}
    return {k: (tuple(v) if isinstance(v, tuple) else v) for k, v in r._asdict().items()}


def block_line(d, b):
    if b is None:
        return "none"
    blk = rec(d.blocks, b)
    image = rec(d.images, blk["image"])["id"]
    routine = "-" if blk["routine"] == dcfg.NONE else \
        str(rec(d.routines, blk["routine"])["entry_node_id"])
    return "block %d addr 0x%x size %d instrs %d image %d routine %s" % (
        blk["node_id"], blk["addr"], blk["size"], blk["num_instrs"], image, routine)


def main():
    d = dcfg.load(sys.argv[1])
    pid = rec(d.processes, 0)["pid"] if len(d.processes) else None
    for line in open(sys.argv[2]):
        words = line.split()
        if not words:
            continue
        cmd, arg = words[0], int(words[1], 0) if len(words) > 1 else None
        if cmd == "process":
            try:
                d.process(arg)
                pid = arg
                print("ok")
            except KeyError:
                pid = None
                print("none")
        elif cmd == "sizes":
            print(" ".join("%s %d" % (n, len(getattr(d, n))) for n in (
                "file_names", "edge_types", "special_nodes", "processes", "images", "symbols",
                "source_lines", "blocks", "routines", "routine_nodes", "loops", "edges",
                "node_ids", "counts")))
        elif pid is None:
            print("no process")
        elif cmd == "edge":
            e = d.edge(pid, arg)
            if e is None:
                print("none")
                continue
            e = rec(d.edges, e)
            first, n = e["counts"]
            counts = " (dropped)" if first == dcfg.NONE else \
                "".join(" %d" % c for c in d.counts[first:first + n])
            print("edge %d %d -> %d %s total %d counts%s" % (
                e["id"], e["source"], e["target"], dcfg.edge_kind_name(e["kind"]), e["total"],
                counts))
        elif cmd == "block":
            print(block_line(d, d.block(pid, arg)))
        elif cmd == "block-at":
            print(block_line(d, d.block_at(pid, arg)))
        elif cmd == "symbol-at":
            s = d.symbol_at(pid, arg)
            print("none" if s is None else
                  "%s+0x%x" % (d.string(rec(d.symbols, s[0])["name"]), s[1]))
        elif cmd == "source-at":
            s = d.source_at(pid, arg)
            if s is None:
                print("none")
            else:
                s = rec(d.source_lines, s)
                print("%s:%d" % (d.file_name(s["file_name_id"]) or "?", s["line"]))
        elif cmd == "image-of":
            b = d.block(pid, arg)
            if b is None:
                print("none")
            else:
                im = rec(d.images, rec(d.blocks, b)["image"])
                print("image %d %s" % (im["id"], d.file_name(im["file_name_id"]) or "?"))
        elif cmd == "special":
            print(["none", "other", "START", "END", "UNKNOWN"][d.special_node(arg)])
        elif cmd == "file":
            print(d.file_name(arg) or "none")
    return 0


if __name__ == "__main__":
    sys.exit(main())
