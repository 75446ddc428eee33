"""A DCFG-trace as Python iteration: its processes, threads and chunks,
and a thread's edges in batches, with instruction windows and runs."""

import ctypes
import weakref

from . import _lib
from ._common import Error, error_from, id_buffer, id_space
from ._reader import OK, RUN_NONE, SKIP, _Pump

BATCH = 1 << 20


class Trace:
    """A DCFG-trace file, read in one streaming pass per iteration.

    Trace(path, pids=None, tids=None) selects the processes whose ids are
    in PIDS and the threads whose THREAD_IDs are in TIDS (None: all);
    the others are skipped without being decoded.  As with dcfg-expand -p
    and -t, an id of PIDS or TIDS that the trace does not hold (a thread:
    in the selected processes) raises Error, with dcfg-expand's message,
    when an iteration has read the trace to its end (ValueError, at once,
    for an id that is no 64-bit unsigned integer).  processes(), threads()
    and chunks() each read the file once, from the start; memory does not
    grow with the trace.  What one of them yields is valid until the
    iteration moves on, as with itertools.groupby (a Process or Thread
    used later raises ValueError).  A trace that cannot be
    read raises Error with its FILE:LINE:COLUMN message.
    """

    def __init__(self, path, pids=None, tids=None):
        self.path = path
        self.pids = None if pids is None else tuple(pids)
        self.tids = None if tids is None else tuple(tids)

    def _pump(self):
        """A new reader of the selection, from the start."""
        return _Pump(self.path, self.pids, self.tids)

    def _walk(self, want):
        """Events of the selection, ("thread", Thread) or ("chunk", Chunk),
        as far as WANT ("thread" or "chunk")."""
        pump = self._pump()
        try:
            while True:
                ev = pump.peek()
                if ev is None:
                    return
                if ev[0] == "process":
                    pump.answer(OK)
                elif ev[0] == "thread":
                    pump.answer(OK)
                    yield ("thread", Thread(pump, ev[1], ev[2]))
                else:
                    if want == "chunk":
                        yield ("chunk", ev[1])
                    if pump.peek() is ev:
                        pump.answer(OK)
        finally:
            pump.close()

    def processes(self):
        """The selected processes, as Process objects: pid, threads()."""
        pump = self._pump()
        try:
            while True:
                ev = pump.peek()
                if ev is None:
                    return
                # what the process's threads() left: a thread unread, a chunk undecoded
                pump.answer(SKIP if ev[0] == "thread" else OK)
                if ev[0] == "process":
                    yield Process(pump, ev[1])
        finally:
            pump.close()

    def threads(self):
        """The selected threads of every selected process, as Thread objects."""
        for ev in self._walk("thread"):
            if ev[0] == "thread":
                yield ev[1]

    def chunks(self):
        """The chunks of the selected threads, as Chunk objects (fields only
        when their edges are not read: the chunk table of dcfg-expand --list)."""
        for ev in self._walk("chunk"):
            if ev[0] == "chunk":
                yield ev[1]

    def edges(self, batch=BATCH, **window):
        """(pid, tid, ids) for every batch of every selected thread, in file
        order; the options are Thread.edges's."""
        for t in self.threads():
            for ids in t.edges(batch, **window):
                yield t.pid, t.tid, ids


class Process:
    """A process of a trace: pid, and threads(), its selected threads."""

    def __init__(self, pump, pid):
        self._pump, self.pid = pump, pid
        self._at = pump.answered

    def threads(self):
        """The process's selected threads, as Thread objects, in file order
        (ValueError once the iteration has moved past the process)."""
        pump = _here(self, "process")
        while True:
            ev = pump.peek()
            if ev is None or ev[0] == "process":
                return
            pump.answer(OK)
            if ev[0] == "thread":
                yield Thread(pump, ev[1], ev[2])


def _here(obj, what):
    """OBJ's reader, if it is still where OBJ (a Process or Thread) was
    made; ValueError once it has moved on (OBJ's data is gone)."""
    if obj._pump.answered != obj._at:
        raise ValueError("the iteration has moved past this %s" % what)
    obj._at = None      # taken: a second call is refused too
    return obj._pump


class Thread:
    """A thread of a trace: pid, tid (its THREAD_ID), and its chunks and edges.

    Only one of chunks(), edges() and runs() can be taken, once, before
    the iteration that gave the thread moves on: the thread's data is read
    as it goes (ValueError otherwise).
    """

    def __init__(self, pump, pid, tid):
        self._pump, self.pid, self.tid = pump, pid, tid
        self._at = pump.answered

    def chunks(self):
        """The thread's chunks, as Chunk objects, in file order."""
        pump = _here(self, "thread")
        while True:
            ev = pump.peek()
            if ev is None or ev[0] != "chunk" or ev[1].pid != self.pid or ev[1].tid != self.tid:
                return
            yield ev[1]
            if pump.peek() is ev:
                pump.answer(OK)

    def edges(self, batch=BATCH, from_icount=0, to_icount=None, dcfg=None):
        """The thread's edge ids, in arrays of BATCH (the last may be
        shorter; a batch spans chunks): numpy uint32 arrays, or
        array.array('I') without numpy.

        FROM_ICOUNT and TO_ICOUNT give the instruction window [from, to) of
        dcfg-expand --from-icount/--to-icount (0 to 2^64 - 1, else ValueError;
        a TO_ICOUNT from 2^64 - 1 up is no end, as None): without DCFG, the whole
        chunks that overlap it; with DCFG (a loaded DCFG with blocks and
        edges) exactly the edges whose instruction count lies in it
        (dcfg_chunk_window_new(3)).  With DCFG, every edge taken must be
        among the process's edges (Error otherwise), as with dcfg-expand
        --dcfg; a process not in DCFG raises Error placed at its
        PROCESS_ID, as dcfg-expand places it (the trace is read again up
        to there: from standard input, "-", the message has no place).
        """
        window = _Window(from_icount, to_icount, dcfg, self.pid, self._pump.path)
        buf, n = id_buffer(batch), 0
        for chunk in self.chunks():
            if window.start(chunk) == _WINDOW_SKIP:
                continue
            while True:
                got = window.next(chunk, buf, n)
                n += got
                if n == batch:
                    yield buf
                    buf, n = id_buffer(batch), 0
                elif got == 0:
                    break
        if n:
            yield buf[:n]

    def runs(self, batch=BATCH, from_icount=0, to_icount=None):
        """The thread's edges with runs, as dcfg-expand --runs writes them:
        (ids, kind, count) tuples, where KIND says what follows IDS:
        RUN_NONE (nothing yet), RUN_BEGIN (the edges up to the matching
        RUN_END run COUNT times) or RUN_END.  A window takes whole chunks,
        as dcfg-expand's without --dcfg."""
        window = _Window(from_icount, to_icount)
        buf, n = id_buffer(batch), 0
        for chunk in self.chunks():
            if window.start(chunk) == _WINDOW_SKIP:
                continue
            while True:
                if n == batch:
                    yield buf, RUN_NONE, 0
                    buf, n = id_buffer(batch), 0
                got, kind, count = chunk.read_runs_into(buf, n)
                n += got
                if kind == RUN_NONE and got == 0:
                    break
                if kind != RUN_NONE:
                    yield buf[:n], kind, count
                    buf, n = id_buffer(batch), 0
        if n:
            yield buf[:n], RUN_NONE, 0


_WINDOW_SKIP = 0    # DCFG_WINDOW_SKIP


def process_of(dcfg, pid, trace_path=None):
    """The index of process PID in the loaded DCFG; Error when absent,
    placed at the PROCESS_ID of the trace at TRACE_PATH as dcfg-expand
    places it (without a place when the trace cannot be read again)."""
    try:
        return dcfg.process(pid)
    except KeyError:
        pass
    message = "process %d is not in the DCFG" % pid
    err = _lib.ErrorStruct()
    if trace_path is not None and _lib.dcfg_trace_fail_process(
            _lib.path_bytes(trace_path), pid, message.encode(), ctypes.byref(err)) < 0:
        raise error_from(err)
    raise Error(message)


class _Window:
    """The library's instruction window [FROM, TO) over a thread's chunks
    (dcfg_chunk_window_new(3)), exact and checked with DCFG's process PID."""

    def __init__(self, lo, hi, dcfg=None, pid=None, trace_path=None):
        # ctypes would wrap a negative count into a huge one: no edge, and no word said
        for name, v, top in (("from_icount", lo, _U64_MAX), ("to_icount", hi, float("inf"))):
            if v is not None and (not isinstance(v, int) or not 0 <= v <= top):
                raise ValueError("%s must be a count from 0 to 2^64 - 1, not %r" % (name, v))
        if hi is not None and lo >= hi:
            raise ValueError("from_icount must be below to_icount")   # dcfg-expand's words
        hi = _U64_MAX if hi is None else min(hi, _U64_MAX)
        d = p = None
        if dcfg is not None:
            process_of(dcfg, pid, trace_path)
            d, p = dcfg._h(), dcfg._process(pid)
            self._owner = dcfg._owner      # the window points into the DCFG: it stays loaded
        self.h = _lib.dcfg_chunk_window_new(d, p, lo, hi)
        if not self.h:
            raise MemoryError("no memory for an instruction window")
        weakref.finalize(self, _lib.dcfg_chunk_window_free, self.h)

    def start(self, chunk):
        """How the window takes CHUNK (DCFG_WINDOW_SKIP, _WHOLE or _CUT)."""
        place = _lib.dcfg_chunk_window_start(self.h, chunk._live())
        if place < 0:
            chunk._failure()
        return place

    def next(self, chunk, buf, start):
        """The chunk's next edges in the window, into BUF[START:]: how many, 0 at its end."""
        addr, room = id_space(buf, start)
        n = _lib.dcfg_chunk_window_next(self.h, addr, room)
        if n < 0:
            chunk._failure()
        return n


_U64_MAX = (1 << 64) - 1
