"""What dcfg-info --json says of each process of a DCFG, worked out from
the tables dcfg.load gives (t/python.bats compares the two with jq):

    python3 tables.py [--keep all|none|...] DCFG

One JSON object a line per process: pid, threads, instructions,
instructions_per_thread, images (id, load_addr, size, file_name),
basic_blocks, routines, loops, edges, and the totals of
static_instructions_per_block, executions_per_block and
dynamic_instructions_per_block_execution: a block's executions are
the totals of the edges into it (its COUNT when the process has no
edges)."""

import json
import sys

import dcfg


def field(table, name):
    """A column of a table, as a list of ints, with or without numpy."""
    if dcfg.HAVE_NUMPY:
        return table[name].tolist()
    return [getattr(r, name) for r in table]


def rng(record, name):
    r = record[name] if dcfg.HAVE_NUMPY else getattr(record, name)
    return int(r[0]), int(r[1])


def main():
    keep = dcfg.KEEP_ALL
    args = sys.argv[1:]
    if args[0] == "--keep":
        keep = 0
        for part in args[1].split(","):
            keep |= getattr(dcfg, "KEEP_" + part.upper().replace("-", "_"), 0)
        args = args[2:]
    try:
        d = dcfg.load(args[0], keep)
    except dcfg.Error as e:
        print("tables.py: %s" % e, file=sys.stderr)
        return 2
    images, blocks, counts = d.images, d.blocks, d.counts
    num_instrs, bcount = field(blocks, "num_instrs"), field(blocks, "count")
    for p in d.processes:
        pid = int(p["pid"] if dcfg.HAVE_NUMPY else p.pid)
        first, n = rng(p, "thread_instr_counts")
        out = {"pid": pid,
               "threads": int(p["threads"] if dcfg.HAVE_NUMPY else p.threads),
               "instructions": int(p["instr_count"] if dcfg.HAVE_NUMPY else p.instr_count)
               if (p["has_instr_count"] if dcfg.HAVE_NUMPY else p.has_instr_count) else None,
               "instructions_per_thread": [int(c) for c in counts[first:first + n]] if n else None,
               "images": []}
        first, n = rng(p, "images")
        for i in range(first, first + n):
            im = images[i]
            get = (lambda k: im[k]) if dcfg.HAVE_NUMPY else (lambda k: getattr(im, k))
            out["images"].append({"id": int(get("id")), "load_addr": hex(int(get("load_addr"))),
                                  "size": int(get("size")),
                                  "file_name": d.file_name(int(get("file_name_id")))})
        for key, table in (("basic_blocks", "blocks"), ("routines", "routines"),
                           ("loops", "loops"), ("edges", "edges")):
            out[key] = rng(p, table)[1]
        first, n = rng(p, "blocks")
        ninstr = num_instrs[first:first + n]
        execs = bcount[first:first + n]
        efirst, en = rng(p, "edges")
        if en:
            # a block's executions are the edges' into it, as dcfg-info counts them
            entries = {}
            for target, total in zip(field(d.edges, "target")[efirst:efirst + en],
                                     field(d.edges, "total")[efirst:efirst + en]):
                entries[target] = entries.get(target, 0) + total
            execs = [entries.get(node, 0) for node in field(blocks, "node_id")[first:first + n]]
        out["static"] = sum(ninstr)
        out["executions"] = sum(execs)
        out["dynamic"] = sum(a * b for a, b in zip(ninstr, execs))
        print(json.dumps(out, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
