"""A loaded DCFG: its tables as arrays, its lookups and its names."""

import array
import collections
import ctypes
import os

from . import _lib
from ._common import Error, error_from, np, text

KEEP_SYMBOLS, KEEP_SOURCE, KEEP_BLOCKS, KEEP_ROUTINES = 1, 2, 4, 8
KEEP_EDGES, KEEP_EDGE_COUNTS, KEEP_ALL = 16, 32, 0x3F
NONE = 0xFFFFFFFF   # DCFG_NONE: no index, no id

Range = collections.namedtuple("Range", "first count")


def _fits(value, bits):
    """Can VALUE be passed as a C uint of BITS bits?  ctypes would cut it
    silently (2^32 + 5 passed as a uint32_t is 5): what does not fit is no
    id, offset or address of the file."""
    return 0 <= value < 1 << bits
_tuple_types = {}


def _tuple_type(ctype):
    """The named tuple that stands for one record of CTYPE without numpy."""
    if ctype not in _tuple_types:
        names = [f[0] for f in ctype._fields_]
        _tuple_types[ctype] = collections.namedtuple(ctype.__name__[5:], names)
    return _tuple_types[ctype]


def _as_tuples(records, ctype):
    """RECORDS (a ctypes array) as a list of named tuples, ranges as Range."""
    make = _tuple_type(ctype)
    fields = ctype._fields_
    out = []
    for r in records:
        values = []
        for name, ftype in fields:
            v = getattr(r, name)
            values.append(Range(v.first, v.count) if ftype is _lib.Range else v)
        out.append(make(*values))
    return out


class DCFG:
    """A DCFG loaded by libdcfg (dcfg_load).

    DCFG(path, keep=KEEP_ALL) reads PATH (plain, gzip or bzip2; "-" is
    standard input) and keeps the parts KEEP names (the KEEP_* flags,
    or'ed): what is not kept reads as an empty table.  A file that cannot
    be read raises Error with its FILE:LINE:COLUMN message, as does JSON
    that is not a DCFG (without MAJOR_VERSION, MINOR_VERSION, PROCESSES,
    or a process's IMAGES) or that lists a process twice, in the words of
    the commands (dcfg-check(1), "What a DCFG has").

    The tables are attributes: processes, images, symbols, source_lines,
    blocks, routines, routine_nodes, loops, edges, file_names, edge_types,
    special_nodes, node_ids and counts.  With numpy each is a structured
    array (node_ids and counts plain uint32 and uint64 arrays) that views
    the library's memory without a copy, read-only; the DCFG stays loaded while any
    of them is alive, even after close().  Without numpy each is a list of
    named tuples (node_ids and counts array.array columns), made on first
    use.  The fields are those of the C structs (dcfg(3)): indices into
    other tables, ranges as (first, count), names as offsets that string()
    turns into text.

    Use it as a context manager, or call close(), to free it early.
    """

    def __init__(self, path, keep=KEEP_ALL):
        err = _lib.ErrorStruct()
        opt = _lib.LoadOptions(keep=keep)
        handle = _lib.dcfg_load(_lib.path_bytes(path), ctypes.byref(opt), ctypes.byref(err))
        if not handle:
            raise error_from(err)
        self.path = "<stdin>" if path == "-" else os.fsdecode(path)   # as messages name it
        self._owner = _Owner(handle)
        self._handle = handle
        self._tables = {}

    def close(self):
        """Drops this object's hold on the library's memory (tables taken
        before stay valid; they hold it too)."""
        self._tables = {}
        self._owner = None
        self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _h(self):
        """The library's handle; ValueError once closed."""
        if self._handle is None:
            raise ValueError("the DCFG is closed")
        return self._handle

    def _table(self, name):
        """Table NAME, made on first use (see the class's docstring)."""
        if name in self._tables:
            return self._tables[name]
        n = ctypes.c_size_t()
        addr = _lib.accessors[name](self._h(), ctypes.byref(n))
        ctype = _lib.TABLES[name]
        n = n.value if addr else 0
        records = (ctype * n).from_address(addr) if n else (ctype * 0)()
        records._owner = self._owner    # the view keeps the DCFG loaded
        if np is not None:
            dtype = np.dtype(ctype)
            table = np.frombuffer(memoryview(records).cast("B"), dtype=dtype) if n else \
                np.zeros(0, dtype=dtype)
            table.flags.writeable = False   # the library's const memory
        elif ctype in (_lib.c_u32, _lib.c_u64):
            table = array.array("I" if ctype is _lib.c_u32 else "Q")
            table.frombytes(memoryview(records).cast("B"))
        else:
            table = _as_tuples(records, ctype)
        self._tables[name] = table
        return table

    # ---- the file ----

    @property
    def version(self):
        """(MAJOR_VERSION, MINOR_VERSION) of the file, or None when it has none."""
        major, minor = ctypes.c_uint64(), ctypes.c_uint64()
        if _lib.dcfg_file_version(self._h(), ctypes.byref(major), ctypes.byref(minor)):
            return (major.value, minor.value)
        return None

    @property
    def identity(self):
        """(crc32, bytes): the CRC-32 and size of the file's data,
        decompressed; dcfg-count writes them as "%08x:%d"."""
        crc, size = ctypes.c_uint32(), ctypes.c_uint64()
        _lib.dcfg_identity(self._h(), ctypes.byref(crc), ctypes.byref(size))
        return (crc.value, size.value)

    # ---- names ----

    def string(self, offset):
        """The name at OFFSET (a name field of a table) as str ("" for an
        offset past the names, as dcfg_string)."""
        h = self._h()
        return text(_lib.dcfg_string(h, offset)) if _fits(offset, 32) else ""

    def file_name(self, file_name_id):
        """The file name of FILE_NAME_ID, or None when the id is absent."""
        if not _fits(file_name_id, 32):
            return None
        return text(_lib.dcfg_file_name(self._h(), file_name_id))

    def special_node(self, node_id):
        """The kind of special node NODE_ID is (SPECIAL_START, ...), or
        SPECIAL_NONE (0) when it is none."""
        return _lib.dcfg_special_node(self._h(), node_id) if _fits(node_id, 32) else 0

    # ---- lookups: each answers an index into its table, or None ----

    def _process(self, pid):
        """The library's pointer to process PID; KeyError when absent."""
        p = _lib.dcfg_find_process(self._h(), pid) if _fits(pid, 64) else None
        if not p:
            raise KeyError("process %d is not in the DCFG" % pid)
        return p

    def _index(self, name, addr):
        """The index in table NAME of the record at ADDR (None for NULL)."""
        if not addr:
            return None
        n = ctypes.c_size_t()
        base = _lib.accessors[name](self._h(), ctypes.byref(n))
        return (addr - base) // ctypes.sizeof(_lib.TABLES[name])

    def process(self, pid):
        """The index in processes of process PID; KeyError when absent."""
        self._process(pid)
        procs = self.processes
        pids = procs["pid"].tolist() if np is not None else [q.pid for q in procs]
        return pids.index(pid)

    def edge(self, pid, edge_id):
        """The index in edges of EDGE_ID of process PID, or None."""
        p = self._process(pid)
        return self._index("edges", _lib.dcfg_edge_by_id(self._h(), p, edge_id)) \
            if _fits(edge_id, 32) else None

    def block(self, pid, node_id):
        """The index in blocks of the block NODE_ID of process PID, or None."""
        p = self._process(pid)
        return self._index("blocks", _lib.dcfg_block_by_node(self._h(), p, node_id)) \
            if _fits(node_id, 32) else None

    def block_at(self, pid, addr):
        """The index in blocks of the block of process PID that holds ADDR, or None."""
        p = self._process(pid)
        return self._index("blocks", _lib.dcfg_block_at(self._h(), p, addr)) \
            if _fits(addr, 64) else None

    def symbol_at(self, pid, addr):
        """(index in symbols, ADDR's offset from its start) of the symbol
        of process PID that covers ADDR, or None."""
        off = ctypes.c_uint64()
        p = self._process(pid)
        if not _fits(addr, 64):
            return None
        s = _lib.dcfg_symbol_at(self._h(), p, addr, ctypes.byref(off))
        return None if not s else (self._index("symbols", s), off.value)

    def source_at(self, pid, addr):
        """The index in source_lines of the line of process PID at ADDR, or None."""
        p = self._process(pid)
        return self._index("source_lines", _lib.dcfg_source_at(self._h(), p, addr)) \
            if _fits(addr, 64) else None


def _table_property(name):
    """The attribute that gives table NAME."""
    return property(lambda self: self._table(name),
                    doc="The %s table (see the class's docstring)." % name)


for _name in _lib.TABLES:
    setattr(DCFG, _name, _table_property(_name))


class _Owner:
    """Frees the loaded DCFG when the last object that needs it goes."""

    def __init__(self, handle):
        self.handle = handle
        self._free = _lib.dcfg_free   # still there at interpreter exit

    def __del__(self):
        if self.handle:
            self._free(self.handle)
            self.handle = None


def load(path, keep=KEEP_ALL):
    """Loads the DCFG at PATH, keeping KEEP (KEEP_* flags); see DCFG."""
    return DCFG(path, keep)


def edge_kind_name(kind):
    """The name of an edge kind (the kind field of edges and edge_types)."""
    return text(_lib.dcfg_edge_kind_name(kind))
