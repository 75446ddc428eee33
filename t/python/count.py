"""dcfg.count's tables (t/python.bats): for each process "# process PID",
then one "key<TAB>executions<TAB>instructions" line per row, as
`dcfg-count --by BY` writes its key, executions and instructions columns.

    python3 count.py --dcfg FILE [--by KIND] [--batch N] [-p PID]... [-t TID]... TRACE
    python3 count.py --dcfg FILE [--by KIND] --from-dcfg"""

import argparse
import sys

import dcfg


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
        else:
            trace = dcfg.Trace(a.trace, pids=a.pids, tids=a.tids)
            tables = dcfg.count(trace, d, by=a.by, batch=a.batch)
    except dcfg.Error as e:
        print("count.py: %s" % e, file=sys.stderr)
        return 2
    for pid, rows in tables.items():
        print("# process %d" % pid)
        for key, executions, instructions in rows:
            print("%d\t%d\t%d" % (key, executions, instructions))
    return 0


if __name__ == "__main__":
    sys.exit(main())
