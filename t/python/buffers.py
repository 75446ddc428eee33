"""Reads the first chunk of a trace into buffers of every kind, good and
bad, and writes what each gives: the number of ids read, or the exception
raised.  Usage: buffers.py TRACE"""

import array
import sys

import dcfg

try:
    import numpy
except ImportError:
    numpy = None

CASES = [
    ("array I", lambda: array.array("I", bytes(64)), 0),
    ("array I, start 3", lambda: array.array("I", bytes(64)), 3),
    ("array I, start 16", lambda: array.array("I", bytes(64)), 16),
    ("array I, start -1", lambda: array.array("I", bytes(64)), -1),
    ("array I, start 17", lambda: array.array("I", bytes(64)), 17),
    ("array H", lambda: array.array("H", bytes(64)), 0),
    ("bytearray", lambda: bytearray(64), 0),
    ("list", lambda: [0] * 16, 0),
]
if numpy is not None:
    CASES += [
        ("numpy uint8", lambda: numpy.zeros(4, dtype=numpy.uint8), 0),
        ("numpy int64", lambda: numpy.zeros(16, dtype=numpy.int64), 0),
        ("numpy uint32 strided", lambda: numpy.zeros(32, dtype=numpy.uint32)[::2], 0),
        ("numpy uint32 2-d", lambda: numpy.zeros((4, 4), dtype=numpy.uint32), 0),
        ("numpy uint32 read-only", lambda: numpy.frombuffer(bytes(64), dtype=numpy.uint32), 0),
    ]


def on_chunk(c):
    """Every case on the first chunk, read again from its start each time."""
    for label, make, start in CASES:
        for runs in (False, True):
            c.rewind()
            try:
                if runs:
                    got = c.read_runs_into(make(), start)[0]
                else:
                    got = c.read_into(make(), start)
                print(label, "runs" if runs else "", got)
            except (TypeError, ValueError) as e:
                print(label, "runs" if runs else "", type(e).__name__)
    return dcfg.STOP


dcfg.read_trace(sys.argv[1], chunk=on_chunk)
