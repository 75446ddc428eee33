#!/usr/bin/env python3
"""Facts of a recorded DCFG, read from its JSON alone (the spec's tables,
columns found by their headers), a second route for t/record-*.bats.

  record-dcfg.py edge-counts DCFG
      "TID<TAB>EDGE_ID<TAB>COUNT" for each edge and thread it ran in
      (COUNT_PER_THREAD[TID] > 0), sorted.
  record-dcfg.py stream-counts < STREAM
      the same from an edge stream (dcfg-expand's output, dcfg-stream(5)):
      how many times each thread took each edge.
  record-dcfg.py calls DCFG
      "NAME<TAB>CALLS" per function of the executable (image 1): the
      executions of the DIRECT_CALL and INDIRECT_CALL edges into the block
      at the function's symbol; NAME its symbol.
  record-dcfg.py loops DCFG
      "NAME<TAB>SOURCE_LINE<TAB>ITERATIONS" per loop of the executable:
      the routine's symbol, the source line of the head block's first
      address (SOURCE_DATA), and the executions of the edges from its
      back-edge sources to its head.
DCFG plain, .gz or .bz2. Python 3 standard library only.
"""

import bz2
import collections
import gzip
import json
import sys


def load(path):
    opener = bz2.open if path.endswith(".bz2") else gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def rows(table):
    head = table[0]
    return [dict(zip(head, r)) for r in table[1:]]


def num(v):
    return int(v, 0) if isinstance(v, str) else v


def process(d):
    procs = rows(d["PROCESSES"])
    if len(procs) != 1:
        sys.exit("record-dcfg.py: %d processes, one expected" % len(procs))
    return procs[0]["PROCESS_DATA"]


def edge_counts(d):
    out = []
    for e in rows(process(d)["EDGES"]):
        for tid, n in enumerate(e["COUNT_PER_THREAD"]):
            if n:
                out.append((tid, e["EDGE_ID"], n))
    return sorted(out)


def stream_counts(f):
    counts = collections.Counter()
    tid = None
    for line in f:
        if line.startswith("# thread "):
            tid = int(line.split()[2])
        elif line.startswith("#") or not line.strip():
            continue
        else:
            counts[tid, int(line.split("\t")[0])] += 1
    return sorted((t, e, n) for (t, e), n in counts.items())


def executable(d):
    """The main image's row: IMAGE_ID 1, as dcfg-record numbers them."""
    for im in rows(process(d)["IMAGES"]):
        if im["IMAGE_ID"] == 1:
            return im
    sys.exit("record-dcfg.py: no image 1")


def symbols_by_node(d, image):
    """node id -> symbol name, for blocks that start at a symbol's address."""
    data = image["IMAGE_DATA"]
    syms = {}
    for s in rows(data.get("SYMBOLS", [[]])) if data.get("SYMBOLS") else []:
        syms.setdefault(num(s["ADDR_OFFSET"]), s["NAME"])
    return {b["NODE_ID"]: syms[num(b["ADDR_OFFSET"])] for b in rows(data["BASIC_BLOCKS"])
            if num(b["ADDR_OFFSET"]) in syms}


def edge_types(d):
    return {t["EDGE_TYPE_ID"]: t["EDGE_TYPE"] for t in rows(d["EDGE_TYPES"])}


def calls(d):
    at = symbols_by_node(d, executable(d))
    types = edge_types(d)
    n = collections.Counter()
    for e in rows(process(d)["EDGES"]):
        if types[e["EDGE_TYPE_ID"]] in ("DIRECT_CALL", "INDIRECT_CALL") and \
                e["TARGET_NODE_ID"] in at:
            n[at[e["TARGET_NODE_ID"]]] += sum(e["COUNT_PER_THREAD"])
    return sorted(n.items())


def source_line(d, image, offset):
    names = {f["FILE_NAME_ID"]: f["FILE_NAME"] for f in rows(d["FILE_NAMES"])}
    for s in rows(image["IMAGE_DATA"].get("SOURCE_DATA") or [["FILE_NAME_ID"]]):
        start = num(s["ADDR_OFFSET"])
        if start <= offset < start + s["SIZE"]:
            return "%s:%d" % (names[s["FILE_NAME_ID"]].rsplit("/", 1)[-1], s["LINE_NUM"])
    return "-"


def loops(d):
    image = executable(d)
    data = image["IMAGE_DATA"]
    offset = {b["NODE_ID"]: num(b["ADDR_OFFSET"]) for b in rows(data["BASIC_BLOCKS"])}
    at = symbols_by_node(d, image)
    into = collections.Counter()
    for e in rows(process(d)["EDGES"]):
        into[e["SOURCE_NODE_ID"], e["TARGET_NODE_ID"]] += sum(e["COUNT_PER_THREAD"])
    out = []
    for r in rows(data.get("ROUTINES") or [[]]):
        for lp in rows(r.get("LOOPS") or [[]]):
            head = lp["LOOP_HEAD_NODE_ID"]
            back = lp.get("LOOP_BACK_EDGE_SOURCE_NODE_IDS") or []
            its = sum(into[s, head] for s in back)
            out.append((at.get(r["ENTRY_NODE_ID"], "-"), source_line(d, image, offset[head]), its))
    return sorted(out)


def main(argv):
    if len(argv) == 3 and argv[1] == "edge-counts":
        out = edge_counts(load(argv[2]))
    elif len(argv) == 2 and argv[1] == "stream-counts":
        out = stream_counts(sys.stdin)
    elif len(argv) == 3 and argv[1] == "calls":
        out = calls(load(argv[2]))
    elif len(argv) == 3 and argv[1] == "loops":
        out = loops(load(argv[2]))
    else:
        sys.exit(__doc__)
    for row in out:
        print("\t".join(str(x) for x in row))


if __name__ == "__main__":
    main(sys.argv)
