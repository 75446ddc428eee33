"""Reading a DCFG-trace: the library's callbacks (read_trace), and a reader
on its own thread that turns them into Python iteration (_Pump).

Why a thread: dcfg_trace_read drives the reading and calls back for each
process, thread and chunk, and a chunk can be decoded only inside its
callback.  A generator cannot suspend inside a C callback, so the reader
runs on a thread of its own that, at each callback, hands the event over
and waits for the consumer's answer (a slot of one event each way).  The
consumer decodes the chunk (dcfg_chunk_next, from its own thread, while
the reader waits), then answers.  Memory is one event and the consumer's
batch, whatever the trace's length; the cost is two thread switches per
chunk, none per edge.  read_trace is the plain callback form, without a
thread, for those who want it."""

import atexit
import ctypes
import sys
import threading
import weakref

from . import _lib
from ._common import Error, error_from, id_buffer, id_space

OK, SKIP, STOP, _ERROR = 0, 1, 2, -1
RUN_NONE, RUN_BEGIN, RUN_END = 0, 1, 2


class _ChunkFailed(Error):
    """The chunk did not decode; the reader reports where and why when the
    callback returns (read_trace raises that Error, chained to this)."""


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

    def __init__(self, ptr, pump=None):
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
        """The chunk failed: the reader's Error is raised (see _ChunkFailed)."""
        self.failed = True
        if self._pump is not None:
            self._pump.fail()     # raises the reader's Error
        raise _ChunkFailed("the chunk's data is wrong (the reader tells where)")


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
    raised = []

    def guard(fn, *args, chunk_obj=None):
        """FN's answer; an exception, or an answer that is none of None,
        OK, SKIP and STOP (ValueError), is kept for later and stops the
        reading."""
        try:
            rc = fn(*args)
        except BaseException as e:   # noqa: B902 (re-raised below)
            if chunk_obj is not None and chunk_obj.failed:
                return _ERROR
            raised.append(e)
            return STOP
        if rc is None:
            return OK
        if isinstance(rc, _FailHere) or (chunk_obj is not None and chunk_obj.failed):
            return rc
        if isinstance(rc, int) and not isinstance(rc, bool) and rc in (OK, SKIP, STOP):
            return rc
        raised.append(ValueError("a callback answers None, OK, SKIP or STOP, not %r" % (rc,)))
        return STOP

    def on_process(ctx, t, pid):
        """The C callback for a process."""
        rc = guard(process, pid) if process else OK
        if isinstance(rc, _FailHere):
            return _lib.dcfg_trace_fail(t, b"%s", rc.message.encode())
        return rc

    def on_thread(ctx, t, pid, tid):
        """The C callback for a thread."""
        return guard(thread, pid, tid) if thread else OK

    def on_chunk(ctx, c):
        """The C callback for a chunk: a Chunk valid during the call only."""
        if not chunk:
            return OK
        obj = Chunk(c)
        try:
            rc = guard(chunk, obj, chunk_obj=obj)
            return _ERROR if obj.failed else rc
        finally:
            obj._ptr = None

    h = _lib.TraceHandler()
    h.process = _lib.ProcessFn(on_process)
    h.thread = _lib.ThreadFn(on_thread)
    h.chunk = _lib.ChunkFn(on_chunk)
    err = _lib.ErrorStruct()
    rc = _lib.dcfg_trace_read(_lib.path_bytes(path), ctypes.byref(h), None, ctypes.byref(err))
    if rc < 0:
        raise error_from(err)
    if raised:
        raise raised[0]
    return rc == 0


class _FailHere:
    """A process callback's answer (internal): the reading fails with
    MESSAGE, placed at the process's PROCESS_ID."""

    def __init__(self, message):
        self.message = message


def fail_at_process(path, pid, message):
    """Raises Error MESSAGE placed where the trace at PATH names process
    PID first, as dcfg-expand places it: the trace is read again up to
    there.  Returns when it cannot be (standard input, no such process)."""
    if path is None or path == "-":
        return
    read_trace(path, process=lambda p: _FailHere(message) if p == pid else SKIP)


class _End:
    """The reader is done: ERROR is what it raised, or None."""

    def __init__(self, error):
        self.error = error


_live = weakref.WeakSet()   # the _Pumps whose reader may still run
_EXIT_WAIT = 2.0            # seconds the interpreter's exit waits for a reader


@atexit.register
def _stop_readers():
    """At interpreter exit, while threads still run: stops every reader an
    iteration left open (a generator kept to the end, or one a Ctrl-C left
    in a traceback), which would otherwise wait forever, at the generator's
    clean-up, for a daemon thread the interpreter has stopped.  A reader
    stuck in the library (standard input that never comes) is not waited
    for past _EXIT_WAIT: the exit is the user's."""
    for pump in list(_live):
        pump.close(_EXIT_WAIT)


_LOOK_AGAIN = 0.5   # seconds: how long a side waits for the other before looking again


def _raise_flag(flag):
    """Raises FLAG, a lock that the other side acquires to wait (a lock
    released is a raised flag; raising it twice is raising it once)."""
    try:
        flag.release()
    except RuntimeError:
        pass


def _lowered_flag():
    """A new flag, lowered."""
    flag = threading.Lock()
    flag.acquire()
    return flag


class _Pump:
    """read_trace on a thread of its own, one event at a time: peek() shows
    the current event, ("process", pid), ("thread", pid, tid), ("chunk",
    Chunk) or None at the end; answer(code) answers it.

    Ctrl-C raises KeyboardInterrupt in the consumer (the main thread)
    between any two steps, even after a call has returned and before its
    result is stored.  So the consumer never takes an event or an answer out
    of a queue, where an interrupt would lose it and leave both sides
    waiting for each other.  Two slots are shared instead, each written by
    one side only, in one assignment: _posted, (number, event), by the
    reader, and _reply, (number, answer), by the consumer.  Reading a slot
    changes nothing, so a read that an interrupt cuts short is read again.
    Each side waits for the other's slot on a flag that the other raises,
    and looks again every _LOOK_AGAIN seconds in case an interrupt came
    between a slot's write and its flag.  close() sets _closing, which the
    reader answers STOP by itself: it ends without the consumer's help.
    """

    def __init__(self, path):
        self.path = path
        self._posted = (0, None)      # the reader's last event, numbered from 1
        self._reply = (0, OK)         # the consumer's answer to event number [0]
        self._shown = 0               # the number of the event peek() returned
        self._closing = False
        self._done = False
        self.answered = 0     # events answered so far: where the reader is
        self._to_consumer, self._to_reader = _lowered_flag(), _lowered_flag()
        self._thread = threading.Thread(target=self._run, args=(path,), daemon=True)
        self._thread.start()
        _live.add(self)

    def _run(self, path):
        """The reader's thread: reads, then tells how it ended."""
        try:
            read_trace(path, self._on_process, self._on_thread, self._on_chunk)
            end = _End(None)
        except BaseException as e:   # noqa: B902 (handed to the consumer)
            end = _End(e)
        self._post(end)

    def _post(self, event):
        """Shows EVENT to the consumer; its number."""
        number = self._posted[0] + 1
        self._posted = (number, event)
        _raise_flag(self._to_consumer)
        return number

    def _ask(self, event):
        """Hands EVENT to the consumer and waits for its answer (STOP once closing)."""
        if self._closing:
            return STOP
        number = self._post(event)
        while True:
            reply = self._reply
            if reply[0] == number:
                return reply[1]
            if self._closing:
                return STOP
            self._to_reader.acquire(timeout=_LOOK_AGAIN)

    def _on_process(self, pid):
        """A process, handed over."""
        return self._ask(("process", pid))

    def _on_thread(self, pid, tid):
        """A thread, handed over."""
        return self._ask(("thread", pid, tid))

    def _on_chunk(self, c):
        """A chunk, handed over: the consumer reads it while the reader waits."""
        c._pump = self
        return self._ask(("chunk", c))

    def peek(self):
        """The current event (waited for if need be), None at the end."""
        if self._done:
            return None
        while True:
            number, ev = self._posted
            if number > self.answered:
                break
            self._to_consumer.acquire(timeout=_LOOK_AGAIN)
        if isinstance(ev, _End):
            self._done = True
            if ev.error is not None:
                raise ev.error
            return None
        self._shown = number
        return ev

    def answer(self, code=OK):
        """Answers the current event with CODE (OK, SKIP, STOP) and lets the reader on."""
        number, ev = self._posted
        if self._done or self._shown != number or number <= self.answered:
            return      # no event shown, or answered already
        if ev[0] == "chunk":
            ev[1]._pump = None
        self.answered = number
        self._reply = (number, code)
        _raise_flag(self._to_reader)

    def fail(self):
        """The current chunk failed: the reader ends with its Error, raised here."""
        self.answer(_ERROR)
        while self.peek() is not None:   # raises the reader's Error
            self.answer(STOP)
        raise Error("the chunk's data is wrong")

    def close(self, timeout=None):
        """Stops the reader early (if it is not done) and waits for it, at
        most TIMEOUT seconds (None: until it ends).  What the reader meets
        after it was told to stop, an error included, is not reported."""
        if sys.is_finalizing():
            return      # the reader's daemon thread is stopped: nothing to wait for
        self._closing = True
        _raise_flag(self._to_reader)
        self._thread.join(timeout)
        self._done = True
