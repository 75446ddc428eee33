#!/usr/bin/env python3
"""two-processes.py DCFG OUT-DCFG OUT-STREAM [THREADS...]

Makes a trace of two processes out of a DCFG of one, for the tests of
plans across processes (t/profile-plans.bats): OUT-DCFG is DCFG with its
first process copied as process PID + 1, and OUT-STREAM an edge stream
(dcfg-stream(5)) of walks through it: each of the first process's threads
(INSTR_COUNT_PER_THREAD), and the threads THREADS (default: 1) of the
copy. A walk starts at an edge out of a special node (START) and takes
each next edge out of the block the one before entered, choosing among
them by a number that changes at each step, back to a START edge where
no edge leaves; thread T walks 1500 + 400 T edges. No counts are kept:
the streams need not agree with the DCFG's COUNT_PER_THREAD, only with
its edges, which is all a profile reads.
"""
import copy
import json
import sys


def column(table, name):
    return table[0].index(name)


def main():
    src, out_dcfg, out_stream = sys.argv[1:4]
    copies = [int(t) for t in sys.argv[4:]] or [1]
    d = json.load(open(src))
    head = d["PROCESSES"][0]
    row = d["PROCESSES"][1]
    pid = row[head.index("PROCESS_ID")]
    data = row[head.index("PROCESS_DATA")]
    edges = data["EDGES"]
    e_id, e_src, e_dst = (column(edges, n) for n in ("EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID"))
    leaving = {}
    for e in edges[1:]:
        leaving.setdefault(e[e_src], []).append((e[e_id], e[e_dst]))
    for v in leaving.values():
        v.sort()
    special = {r[0] for r in d["SPECIAL_NODES"][1:]}
    starts = sorted(e for s in special for e in leaving.get(s, []))
    twin = copy.deepcopy(row)
    twin[head.index("PROCESS_ID")] = pid + 1
    d["PROCESSES"].append(twin)
    json.dump(d, open(out_dcfg, "w"))

    def walk(seed, n):
        k = seed
        e, node = starts[seed % len(starts)]
        ids = [e]
        while len(ids) < n:
            choices = leaving.get(node) or starts
            e, node = choices[k % len(choices)]
            k = (k * 7 + 3) & 0xffff
            ids.append(e)
        return ids

    threads = len(data["INSTR_COUNT_PER_THREAD"])
    with open(out_stream, "w") as out:
        out.write("# dcfg-stream 1\n")
        for p, tids in ((pid, range(threads)), (pid + 1, copies)):
            out.write("# process %d\n" % p)
            for t in tids:
                out.write("# thread %d\n" % t)
                out.write("".join("%d\n" % e for e in walk(t + 3 * (p - pid), 1500 + 400 * t)))


if __name__ == "__main__":
    main()
