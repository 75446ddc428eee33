"""Reads a trace's edges over and over until the user presses Ctrl-C (the
test sends SIGINT, as a terminal does).  Usage: interrupt.py TRACE MODE

Writes "reading" once the first batch is in.  MODE "caught": the
KeyboardInterrupt must reach this loop; it writes "interrupted", then reads
the trace once more to its end (the package is not left stuck) and writes
its edge count.  MODE "uncaught": the KeyboardInterrupt ends the program,
as a script's user meets it."""

import sys

import dcfg


def read_forever(path):
    """Batches of a few edges, so that the reader hands over events all the time."""
    said = False
    while True:
        for _pid, _tid, ids in dcfg.Trace(path).edges(batch=7):
            if not said:
                print("reading", flush=True)
                said = True


path, mode = sys.argv[1], sys.argv[2]
if mode == "uncaught":
    read_forever(path)
try:
    read_forever(path)
except KeyboardInterrupt:
    print("interrupted", flush=True)
print(sum(len(ids) for _pid, _tid, ids in dcfg.Trace(path).edges()))
