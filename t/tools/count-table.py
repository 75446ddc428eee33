#!/usr/bin/env python3
"""Columns of a dcfg-count table (TSV, dcfg-count(1) TABLES), read by header.

  count-table.py TABLE COLUMN...
      the named columns of every row, tab-separated, in the table's order;
      a table of several processes gives the rows of all of them.
  count-table.py TABLE --total
      the total_instructions of each process, one a line.
TABLE '-' is standard input. The names of the rows are unescaped
(dcfg-stream(5), Names: \\t, \\n, \\\\ and \\xHH), so that they compare with
names another tool prints. Python 3 standard library only.
"""

import re
import sys


def unescape(field):
    def one(m):
        s = m.group(0)
        return {"\\t": "\t", "\\n": "\n", "\\\\": "\\"}.get(s) or chr(int(s[2:], 16))
    return re.sub(r"\\x[0-9a-fA-F]{2}|\\[tn\\]", one, field)


def read(lines):
    """Yields ('total', n) and ('row', {column: value}) in order."""
    header = None
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith("# total_instructions "):
            yield "total", int(line.split()[2])
        elif line.startswith("# ") and "\t" in line:
            header = line[2:].split("\t")
        elif line.startswith("#") or not line:
            continue
        elif header is None:
            sys.exit("count-table.py: a row before the header line: " + line)
        else:
            fields = line.split("\t")
            if len(fields) != len(header):
                sys.exit("count-table.py: a row of %d columns under %d: %s"
                         % (len(fields), len(header), line))
            yield "row", dict(zip(header, (unescape(f) for f in fields)))


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    f = sys.stdin if argv[1] == "-" else open(argv[1], encoding="utf-8",
                                              errors="surrogateescape")
    for kind, value in read(f):
        if argv[2:] == ["--total"]:
            if kind == "total":
                print(value)
        elif kind == "row":
            missing = [c for c in argv[2:] if c not in value]
            if missing:
                sys.exit("count-table.py: no column " + ", ".join(missing))
            print("\t".join(value[c] for c in argv[2:]))


if __name__ == "__main__":
    main(sys.argv)
