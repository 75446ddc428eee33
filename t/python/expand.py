"""dcfg-expand's output, made with the dcfg Python package (t/python.bats).

    python3 expand.py [--runs | --unrun | --list] [--batch N] [-p PID]... [-t TID]...
        [--from-icount N] [--to-icount M] [--dcfg FILE] TRACE

writes what `dcfg-expand [--runs | --list] [...] TRACE` writes: the edge
stream (version 2 with --runs), or the chunk table.  --unrun reads with
runs and writes the runs out copy by copy: the plain stream again.  On an
error: "expand.py: MESSAGE" on stderr, exit 2."""

import argparse
import sys

import dcfg


def write_ids(out, ids):
    out.write("".join("%d\n" % i for i in ids))


def unrun(items):
    """The plain ids of (ids, kind, count) items: each run's period repeated."""
    stack = [[1, []]]            # [count, edges of the period so far]
    for ids, kind, count in items:
        stack[-1][1].extend(ids)
        if kind == dcfg.RUN_BEGIN:
            stack.append([count, []])
        elif kind == dcfg.RUN_END:
            n, period = stack.pop()
            stack[-1][1].extend(period * n)
        if len(stack) == 1:
            yield stack[0][1]
            stack[0][1] = []
    yield stack[0][1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", action="store_true")
    ap.add_argument("--unrun", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--batch", type=int, default=1 << 20)
    ap.add_argument("--from-icount", type=int, default=0)
    ap.add_argument("--to-icount", type=int)
    ap.add_argument("--dcfg")
    ap.add_argument("-p", type=int, action="append", dest="pids")
    ap.add_argument("-t", type=int, action="append", dest="tids")
    ap.add_argument("trace")
    a = ap.parse_args()
    out = sys.stdout
    window = {"from_icount": a.from_icount, "to_icount": a.to_icount}
    try:
        d = dcfg.load(a.dcfg) if a.dcfg else None
        trace = dcfg.Trace(a.trace, pids=a.pids, tids=a.tids)
        if a.list:
            out.write("# pid\ttid\tchunk\tpreceding_instr_count\tinstr_count\tedge_count\t"
                      "sequence_length\n")
            for c in trace.chunks():
                out.write("%d\t%d\t%d\t%d\t%d\t%d\t%d\n" % (
                    c.pid, c.tid, c.index, c.preceding_instr_count, c.instr_count,
                    c.edge_count, c.sequence_length))
            return 0
        out.write("# dcfg-stream %d\n" % (2 if a.runs else 1))
        for p in trace.processes():
            out.write("# process %d\n" % p.pid)
            for t in p.threads():
                out.write("# thread %d\n" % t.tid)
                if a.runs:
                    for ids, kind, count in t.runs(a.batch, **window):
                        write_ids(out, ids)
                        if kind == dcfg.RUN_BEGIN:
                            out.write("# run %d\n" % count)
                        elif kind == dcfg.RUN_END:
                            out.write("# end run\n")
                elif a.unrun:
                    for ids in unrun(t.runs(a.batch, **window)):
                        write_ids(out, ids)
                else:
                    for ids in t.edges(a.batch, dcfg=d, **window):
                        write_ids(out, ids)
    except dcfg.Error as e:
        out.flush()
        print("expand.py: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
