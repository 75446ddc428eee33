"""dcfg.count's tables (t/python.bats), written as dcfg-count --by writes
them but for its first line ("# dcfg-count ..."): for each process
"# process PID", "# total_instructions N", the header line, then one row
per key with every column, the share included, names escaped as
dcfg-stream(5) says. The total, what every share is of, is the sum of the
process's table by edge (each edge's executions times its source's
instructions), counted a second time; by thread, the threads' sum.

    python3 count.py --dcfg FILE [--by KIND] [--batch N] [-p PID]... [-t TID]... TRACE
    python3 count.py --dcfg FILE [--by KIND] --from-dcfg"""

import argparse
import sys

import dcfg

HEADERS = {
    "routine": "# routine\tname\texecutions\tinstructions\tshare",
    "loop": "# loop\troutine\tname\tsource\tdepth\tinnermost\tstatic\tentries\titerations"
            "\tinstructions\tshare",
}


def share(part, total):
    """PART of TOTAL in percent, two decimals, rounded half up (dcfg-count(1))."""
    h = (part * 20000 + total) // (total * 2) if total else 0
    return "%d.%02d" % (h // 100, h % 100)


def key_text(by, key):
    """The first column: names escaped, (file, line) as file:line."""
    if by in ("image", "type"):
        return dcfg.escape(key)
    if by in ("line", "file"):
        name, line = key
        return dcfg.escape(name) + ("" if line is None else ":%s" % line)
    return "%d" % key


def rows_text(d, pid, by, rows, total):
    """The table's rows, as dcfg-count writes them: shares of TOTAL."""
    out = []
    for r in rows:
        if by == "loop":
            src = "-" if r.source is None else "%s:%d" % (dcfg.escape(r.source[0]), r.source[1])
            cols = ["%d" % r.head, "%d" % r.routine, dcfg.escape(r.name), src, "%d" % r.depth,
                    "yes" if r.innermost else "no", "%d" % r.static, "%d" % r.executions,
                    "%d" % r.iterations]
        else:
            cols = [key_text(by, r.key)]
            if by == "routine":
                b = d.block(pid, r.key)
                cols.append("-" if b is None else
                            dcfg.escape(dcfg.code_name(d, pid, int(d.blocks[b]["addr"])
                                                       if dcfg.HAVE_NUMPY else d.blocks[b].addr)))
            cols.append("%d" % r.executions)
        cols += ["%d" % r.instructions, share(r.instructions, total)]
        out.append("\t".join(cols))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dcfg", required=True)
    ap.add_argument("--by", default="edge")
    ap.add_argument("--batch", type=int, default=1 << 20)
    ap.add_argument("--from-dcfg", action="store_true")
    ap.add_argument("-p", type=int, action="append", dest="pids")
    ap.add_argument("-t", type=int, action="append", dest="tids")
    ap.add_argument("trace", nargs="?")
    a = ap.parse_args()
    try:
        d = dcfg.load(a.dcfg)
        if a.from_dcfg:
            tables = dcfg.count_dcfg(d, by=a.by)
            edges = tables if a.by == "thread" else dcfg.count_dcfg(d, by="edge")
        else:
            trace = dcfg.Trace(a.trace, pids=a.pids, tids=a.tids)
            tables = dcfg.count(trace, d, by=a.by, batch=a.batch)
            edges = tables if a.by == "thread" else \
                dcfg.count(dcfg.Trace(a.trace, pids=a.pids, tids=a.tids), d, by="edge",
                           batch=a.batch)
        out = []
        for pid, rows in tables.items():
            total = sum(r.instructions for r in edges[pid])
            out.append("# process %d" % pid)
            out.append("# total_instructions %d" % total)
            out.append(HEADERS.get(a.by, "# %s\texecutions\tinstructions\tshare" % a.by))
            out += rows_text(d, pid, a.by, rows, total)
    except dcfg.Error as e:
        print("count.py: %s" % e, file=sys.stderr)
        return 2
    sys.stdout.buffer.write(("".join(line + "\n" for line in out))
                            .encode("utf-8", "surrogateescape"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
