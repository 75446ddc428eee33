"""Answers read_trace's process callback with good and bad values, and
writes what read_trace returns with the edges the chunks held, or the
exception it raises.  Usage: answers.py TRACE"""

import sys

import dcfg

for label, answer in [("None", None), ("OK", dcfg.OK), ("SKIP", dcfg.SKIP), ("STOP", dcfg.STOP),
                      ("-1", -1), ("True", True), ("7", 7), ("1.5", 1.5), ("'go'", "go")]:
    edges = []
    try:
        done = dcfg.read_trace(sys.argv[1], process=lambda pid: answer,
                               chunk=lambda c: edges.append(c.edge_count))
        print(label, done, sum(edges))
    except (ValueError, dcfg.Error) as e:
        print(label, type(e).__name__, e)
