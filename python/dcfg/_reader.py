"""Reading a DCFG-trace: the library's pull reader (dcfg_trace_pull_open(3))
as Python iteration (_Pump), and the callback form on top of it
(read_trace).  The library reads on a thread of its own that hands over
one event at a time and waits for the answer; the consumer decodes a chunk
while the reader waits.  Memory is one event and the consumer's batch,
whatever the trace's length."""

import ctypes
import weakref

from . import _lib
from ._common import Error, error_from, id_buffer, id_space

OK, SKIP, STOP, _ERROR = 0, 1, 2, -1
RUN_NONE, RUN_BEGIN, RUN_END = 0, 1, 2


class Chunk:
    """One chunk of a thread's trace data (a TRACE_DATA row).

    pid, tid, index (0-based within its thread), preceding_instr_count,
    instr_count, edge_count, first_edge_id and sequence_length are the
    chunk's fields (dcfg_chunk_info).  Its edges can be read only while the
    reader is at the chunk: inside the chunk callback of read_trace, or
    before the iteration that gave it moves on.
    """

    __slots__ = ("_ptr", "_pump", "failed", "pid", "tid", "index", "preceding_instr_count",
                 "instr_count", "edge_count", "first_edge_id", "sequence_length")

    def __init__(self, ptr, pump):
        self._ptr, self._pump, self.failed = ptr, pump, False
        i = _lib.dcfg_chunk_info(ptr).contents
        self.pid, self.tid, self.index = i.pid, i.tid, i.index
        self.preceding_instr_count, self.instr_count = i.preceding_instr_count, i.instr_count
        self.edge_count, self.first_edge_id = i.edge_count, i.first_edge_id
        self.sequence_length = i.sequence_length

    def __repr__(self):
        return ("Chunk(pid=%d, tid=%d, index=%d, preceding_instr_count=%d, instr_count=%d, "
                "edge_count=%d)" % (self.pid, self.tid, self.index, self.preceding_instr_count,
                                    self.instr_count, self.edge_count))

    def _live(self):
        """The library's chunk; ValueError once the reader has moved on."""
        if self._ptr is None:
            raise ValueError("the reader has moved past this chunk")
        return self._ptr

    def read_into(self, buf, start=0):
        """Decodes the chunk's next edges into BUF[START:] (a numpy uint32
        array or an array.array('I'): TypeError for any other); returns how
        many, 0 at the end (or when START is len(BUF))."""
        c = self._live()
        addr, room = id_space(buf, start)
        if room == 0:
            return 0
        n = _lib.dcfg_chunk_next(c, addr, room)
        if n < 0:
            self._failure()
        return n

    def read_runs_into(self, buf, start=0):
        """As read_into, with runs (dcfg_chunk_next_runs): (n, kind, count),
        where KIND says what follows the N edges: RUN_NONE (nothing, or the
        chunk's end when N is 0), RUN_BEGIN (a run of COUNT copies of the
        edges up to its RUN_END) or RUN_END."""
        ev = _lib.RunEvent()
        c = self._live()
        addr, room = id_space(buf, start)
        if room == 0:
            raise ValueError("no room in the buffer")
        n = _lib.dcfg_chunk_next_runs(c, addr, room, ctypes.byref(ev))
        if n < 0:
            self._failure()
        return n, ev.kind, ev.count

    def edges(self, batch=1 << 16):
        """The chunk's edge ids, in arrays of up to BATCH."""
        while True:
            buf = id_buffer(batch)
            n = self.read_into(buf)
            if n == 0:
                return
            yield buf[:n]

    @property
    def emitted(self):
        """The edges decoded so far, the runs' copies included."""
        return _lib.dcfg_chunk_emitted(self._live())

    def rewind(self):
        """Starts decoding again from the chunk's first edge."""
        _lib.dcfg_chunk_rewind(self._live())

    def fail(self, edge_index, message):
        """Reports MESSAGE about the chunk's edge EDGE_INDEX at the chunk's
        place in the file: raises Error "FILE:LINE:COLUMN: ... MESSAGE"."""
        _lib.dcfg_chunk_fail(self._live(), edge_index, b"%s", message.encode())
        self._failure()

    def _failure(self):
        """The chunk failed: the reader's Error is raised."""
        self.failed = True
        self._pump.fail()     # raises the reader's Error


def read_trace(path, process=None, thread=None, chunk=None):
    """Reads the trace at PATH ("-": standard input) with callbacks, in file order.

    process(pid), thread(pid, tid) and chunk(Chunk) are each optional;
    each may return None or OK to go on, SKIP (process and thread only) to
    leave its data unread, or STOP to end the reading early (any other
    answer, True included, stops it and raises ValueError).  A chunk not
    read from costs nothing.  Returns True when read to the end, False when
    stopped.  A trace that cannot be read, or whose chunk does not decode,
    raises Error with its FILE:LINE:COLUMN message; an exception raised by
    a callback stops the reading and is raised again here.
    """
    pump = _Pump(path)
    try:
        while True:
            ev = pump.peek()
            if ev is None:
                return not pump.stopped
            fn = {"process": process, "thread": thread, "chunk": chunk}[ev[0]]
            rc = fn(*ev[1:]) if fn else None
            if ev[0] == "chunk" and ev[1].failed:
                pump.fail()
            if rc is None:
                rc = OK
            if not (isinstance(rc, int) and not isinstance(rc, bool) and rc in (OK, SKIP, STOP)):
                raise ValueError("a callback answers None, OK, SKIP or STOP, not %r" % (rc,))
            pump.answer(rc)
    finally:
        pump.close()


_WAIT_MS = 50       # how long a wait for the reader lasts before Python looks for Ctrl-C
_CLOSE_WAIT_MS = 2000   # how long close() waits for a reader to stop (stuck on standard input)


def _ids(ids):
    """(a C array of IDS, their number) for the library: (None, 0) for None (all)."""
    if ids is None:
        return None, 0
    for i in ids:
        if not 0 <= i < 1 << 64:
            raise ValueError("id %d is not a 64-bit unsigned integer" % i)
    return (ctypes.c_uint64 * max(len(ids), 1))(*ids), len(ids)


class _Pump:
    """The library's pull reader of the processes PIDS and threads TIDS
    (None: all; dcfg-expand's -p and -t, with its error at the end when
    one is not in the trace): peek() shows the current event,
    ("process", pid), ("thread", pid, tid), ("chunk", Chunk) or None at
    the end (raising the reader's Error, if it failed); answer(code)
    answers it.  Ctrl-C raises KeyboardInterrupt between two waits of
    _WAIT_MS; close(), in the iteration's clean-up, stops the reader
    whatever state the interrupt left."""

    def __init__(self, path, pids=None, tids=None):
        self.path = path
        self.answered = 0     # events answered so far: where the reader is
        self.stopped = False
        self._shown = self._end = None
        self._err = _lib.ErrorStruct()
        self._h = _lib.dcfg_trace_pull_open(_lib.path_bytes(path), *_ids(pids), *_ids(tids))
        if not self._h:
            raise MemoryError("no memory or no thread for the trace reader")
        # closed when collected, or at the interpreter's exit, if not before
        self._closer = weakref.finalize(self, _lib.dcfg_trace_pull_close, self._h, _CLOSE_WAIT_MS)

    def peek(self):
        """The current event (waited for if need be), None at the end."""
        if self._shown is not None:
            return self._shown
        if self._end is not None:
            if isinstance(self._end, Error):
                raise self._end
            return None
        ev = _lib.TraceEvent()
        rc = _lib.PULL_WAIT
        while rc == _lib.PULL_WAIT:
            rc = _lib.dcfg_trace_pull_next(self._h, ctypes.byref(ev), _WAIT_MS,
                                           ctypes.byref(self._err))
        if rc != _lib.PULL_EVENT:
            self.stopped = rc == 1
            self._end = error_from(self._err) if rc < 0 else True
            return self.peek()
        if ev.kind == _lib.EVENT_CHUNK:
            self._shown = ("chunk", Chunk(ev.chunk, self))
        else:
            self._shown = ("process", ev.pid) if ev.kind == _lib.EVENT_PROCESS else \
                ("thread", ev.pid, ev.tid)
        return self._shown

    def answer(self, code=OK):
        """Answers the current event with CODE (OK, SKIP, STOP) and lets the reader on."""
        ev = self._shown
        if ev is None:
            return      # no event shown, or answered already
        _lib.dcfg_trace_pull_answer(self._h, code)
        if ev[0] == "chunk":
            ev[1]._ptr = None
        self._shown = None
        self.answered += 1

    def fail(self):
        """The current chunk failed: the reader ends with its Error, raised here."""
        self.answer(_ERROR)
        while self.peek() is not None:   # raises the reader's Error
            self.answer(STOP)
        raise Error("the chunk's data is wrong")

    def close(self):
        """Stops the reader early (if it is not done).  What the reader meets
        after it was told to stop, an error included, is not reported."""
        if self._shown is not None and self._shown[0] == "chunk":
            self._shown[1]._ptr = None
        self._shown, self._end = None, self._end or True
        self._closer()
