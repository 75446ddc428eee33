"""Uses a Process and Threads of a trace after their iteration has moved
on, and a Thread's edges twice; writes what each answers (ValueError, or
the answer).  Usage: stale.py TRACE (t/data/trace-multi.json's layout:
process 7 with threads 2 and 0, then process 9 with threads 0 and 1)"""

import sys

import dcfg


def show(label, f):
    """Writes LABEL and what F answers, or the ValueError it raises."""
    try:
        print(label, f())
    except ValueError as e:
        print(label, "ValueError:", e)


t = dcfg.Trace(sys.argv[1])
threads = list(t.threads())
show("thread 7/2 edges after the iteration:", lambda: sum(len(i) for i in threads[0].edges()))
show("thread 9/1 runs after the iteration:", lambda: list(threads[-1].runs()))
procs = t.processes()
p7, p9 = next(procs), next(procs)
show("process 7 threads after process 9:", lambda: [x.tid for x in p7.threads()])
show("process 9 threads:", lambda: [(x.pid, x.tid) for x in p9.threads()])
g = t.threads()
first = next(g)
show("thread 7/2 edges:", lambda: sum(len(i) for i in first.edges()))
show("thread 7/2 edges again:", lambda: sum(len(i) for i in first.edges()))
