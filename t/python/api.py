"""The package's callbacks, early stops and exceptions (t/python.bats):

    python3 api.py TRACE TRUNCATED-TRACE

prints one line per check, each computed through a different part of the
API, for the test to compare with what dcfg-expand says of TRACE."""

import sys
import threading

import dcfg

trace, truncated = sys.argv[1], sys.argv[2]

# read_trace: every thread's edges counted in the chunk callback
edges = {}


def on_chunk(c):
    for ids in c.edges(1000):
        edges[c.pid, c.tid] = edges.get((c.pid, c.tid), 0) + len(ids)


print("read_trace", dcfg.read_trace(trace, chunk=on_chunk))
for (pid, tid), n in edges.items():
    print("edges %d %d %d" % (pid, tid, n))

# a callback's exception is raised again, the reading stopped
seen = []


def boom(c):
    seen.append(c.index)
    raise ValueError("boom in chunk %d" % c.index)


try:
    dcfg.read_trace(trace, chunk=boom)
    print("no exception")
except ValueError as e:
    print("raised", type(e).__name__, e, "after", len(seen), "chunk")

# STOP ends the reading early, SKIP leaves a process's data unread
threads = []
print("stopped", not dcfg.read_trace(trace, thread=lambda p, t: threads.append(t) or dcfg.STOP),
      "after", len(threads), "thread")
chunks = []
dcfg.read_trace(trace, process=lambda p: dcfg.SKIP, chunk=chunks.append)
print("skipped", len(chunks), "chunks")

# a generator left early stops its reader; a consumer's exception comes through
for t in dcfg.Trace(trace).threads():
    break
del t
try:
    for t in dcfg.Trace(trace).threads():
        raise KeyError("mine")
except KeyError as e:
    print("consumer's", type(e).__name__, e)
del t
import gc
gc.collect()
print("reader threads left", threading.active_count() - 1)

# a chunk is not read once the iteration has moved on
kept = list(dcfg.Trace(trace).chunks())
try:
    kept[0].read_into(bytearray(4))
    print("read a stale chunk")
except ValueError:
    print("stale chunk refused;", len(kept), "chunks")

# the Error's parts
for path in ("missing.json", truncated):
    try:
        for _ in dcfg.Trace(path).edges():
            pass
    except dcfg.Error as e:
        whole = "%s:%d:%d: %s" % (e.file, e.line, e.column, e.message) if e.line else \
            "%s: %s" % (e.file, e.message)
        print("Error", isinstance(e, Exception), str(e) == whole, e.line > 0, str(e))

# a selection of processes and of threads, as dcfg-expand -p and -t
for pid, tid, ids in dcfg.Trace(trace, pids=[9]).edges():
    print("select -p 9: %d %d %d" % (pid, tid, len(ids)))
for pid, tid, ids in dcfg.Trace(trace, tids=[2, 1]).edges():
    print("select -t 2 -t 1: %d %d %d" % (pid, tid, len(ids)))
print("processes", [p.pid for p in dcfg.Trace(trace).processes()])

# a window's counts are instruction counts: a negative one is refused, never wrapped
for window in ({"from_icount": -5}, {"to_icount": -1}, {"from_icount": 1 << 64}, {"to_icount": 1.5},
               {"from_icount": 10, "to_icount": 5}, {"from_icount": 7, "to_icount": 7}):
    try:
        for _ in dcfg.Trace(trace).edges(**window):
            pass
        print("window taken", window)
    except ValueError as e:
        print("window refused:", e)
