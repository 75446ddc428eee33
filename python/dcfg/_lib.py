"""The C library under the package: loading it, and its structs and
prototypes in ctypes (include/dcfg/*.h, the layouts the public headers
promise).  Internal: the public names are in dcfg/__init__.py."""

import ctypes
import ctypes.util
import os

c_u32, c_u64, c_int, c_size = ctypes.c_uint32, ctypes.c_uint64, ctypes.c_int, ctypes.c_size_t


def _library_path():
    """DCFG_LIBRARY; else the library `make install` put beside this
    package (it writes its path into _installed.py, so no ldconfig is
    needed); else the system's, by ctypes.util.find_library or by soname."""
    path = os.environ.get("DCFG_LIBRARY")
    if path:
        return path
    try:
        from ._installed import LIBRARY
        if os.path.exists(LIBRARY):
            return LIBRARY
    except ImportError:
        pass
    return ctypes.util.find_library("dcfg") or "libdcfg.so.0"


lib = ctypes.CDLL(_library_path())


def _struct(name, fields):
    """A ctypes Structure named NAME with FIELDS."""
    return type(name, (ctypes.Structure,), {"_fields_": fields})


Range = _struct("dcfg_range", [("first", c_u32), ("count", c_u32)])
FileName = _struct("dcfg_file_name", [("id", c_u32), ("name", c_u32)])
EdgeType = _struct("dcfg_edge_type", [("id", c_u32), ("name", c_u32), ("kind", c_int)])
SpecialNode = _struct("dcfg_special_node", [("id", c_u32), ("name", c_u32), ("kind", c_int)])
Symbol = _struct("dcfg_symbol", [("offset", c_u64), ("size", c_u64), ("addr", c_u64),
                                 ("name", c_u32), ("image", c_u32)])
SourceLine = _struct("dcfg_source_line", [
    ("offset", c_u64), ("size", c_u64), ("num_instrs", c_u64), ("line", c_u64),
    ("addr", c_u64), ("file_name_id", c_u32), ("image", c_u32)])
Block = _struct("dcfg_block", [
    ("node_id", c_u32), ("image", c_u32), ("routine", c_u32), ("has_count", c_u32),
    ("offset", c_u64), ("size", c_u64), ("num_instrs", c_u64), ("last_instr_offset", c_u64),
    ("count", c_u64), ("addr", c_u64)])
RoutineNode = _struct("dcfg_routine_node", [("node_id", c_u32), ("idom_node_id", c_u32)])
Routine = _struct("dcfg_routine", [
    ("entry_node_id", c_u32), ("image", c_u32), ("exits", Range), ("nodes", Range),
    ("loops", Range)])
Loop = _struct("dcfg_loop", [
    ("head_node_id", c_u32), ("parent_head_node_id", c_u32), ("routine", c_u32),
    ("back_edge_sources", Range), ("nodes", Range)])
Edge = _struct("dcfg_edge", [
    ("id", c_u32), ("source", c_u32), ("target", c_u32), ("type_id", c_u32), ("kind", c_int),
    ("counts", Range), ("total", c_u64)])
Image = _struct("dcfg_image", [
    ("id", c_u32), ("file_name_id", c_u32), ("process", c_u32), ("load_addr", c_u64),
    ("size", c_u64), ("symbols", Range), ("source_lines", Range), ("blocks", Range),
    ("routines", Range)])
Process = _struct("dcfg_process", [
    ("pid", c_u64), ("instr_count", c_u64), ("has_instr_count", c_int),
    ("thread_instr_counts", Range), ("threads", c_u32),
    ("images", Range), ("edges", Range), ("symbols", Range), ("source_lines", Range),
    ("blocks", Range), ("routines", Range), ("loops", Range)])

ErrorStruct = _struct("dcfg_error", [
    ("file", ctypes.c_char * 256), ("line", ctypes.c_ulong), ("column", ctypes.c_ulong),
    ("message", ctypes.c_char * 512)])

ProgressFn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, c_u64)
LoadOptions = _struct("dcfg_load_options", [
    ("keep", ctypes.c_uint), ("progress", ProgressFn), ("progress_ctx", ctypes.c_void_p)])

ChunkInfo = _struct("dcfg_chunk_info", [
    ("pid", c_u64), ("tid", c_u64), ("index", ctypes.c_ulong),
    ("preceding_instr_count", c_u64), ("instr_count", c_u64), ("edge_count", c_u64),
    ("first_edge_id", c_u32), ("sequence_length", c_size)])
RunEvent = _struct("dcfg_run_event", [("kind", c_int), ("count", c_u64)])

vp = ctypes.c_void_p
TraceEvent = _struct("dcfg_trace_event", [
    ("kind", c_int), ("pid", c_u64), ("tid", c_u64), ("trace", vp), ("chunk", vp)])
EVENT_PROCESS, EVENT_THREAD, EVENT_CHUNK = 0, 1, 2
PULL_EVENT, PULL_WAIT = 3, 4

P = ctypes.POINTER
ERR = P(ErrorStruct)


def _proto(name, restype, *argtypes):
    """Function NAME of the library, with its prototype."""
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


dcfg_load = _proto("dcfg_load", vp, ctypes.c_char_p, P(LoadOptions), ERR)
dcfg_free = _proto("dcfg_free", None, vp)
dcfg_error_format = _proto("dcfg_error_format", None, ERR, ctypes.c_char_p, c_size)
dcfg_file_version = _proto("dcfg_file_version", c_int, vp, P(c_u64), P(c_u64))
dcfg_identity = _proto("dcfg_identity", None, vp, P(c_u32), P(c_u64))
dcfg_library_version = _proto("dcfg_library_version", ctypes.c_char_p)
dcfg_string = _proto("dcfg_string", ctypes.c_char_p, vp, c_u32)
dcfg_file_name = _proto("dcfg_file_name", ctypes.c_char_p, vp, c_u32)
dcfg_edge_kind_name = _proto("dcfg_edge_kind_name", ctypes.c_char_p, c_int)
dcfg_special_node = _proto("dcfg_special_node", c_int, vp, c_u32)
dcfg_find_process = _proto("dcfg_find_process", vp, vp, c_u64)
dcfg_edge_by_id = _proto("dcfg_edge_by_id", vp, vp, vp, c_u32)
dcfg_block_by_node = _proto("dcfg_block_by_node", vp, vp, vp, c_u32)
dcfg_block_at = _proto("dcfg_block_at", vp, vp, vp, c_u64)
dcfg_symbol_at = _proto("dcfg_symbol_at", vp, vp, vp, c_u64, P(c_u64))
dcfg_source_at = _proto("dcfg_source_at", vp, vp, vp, c_u64)
dcfg_code_names_new = _proto("dcfg_code_names_new", vp, vp, vp)
dcfg_code_names_free = _proto("dcfg_code_names_free", None, vp)
dcfg_code_name = _proto("dcfg_code_name", c_size, vp, c_u64, ctypes.c_char_p, c_size)
dcfg_escape_name = _proto("dcfg_escape_name", c_size, ctypes.c_char_p, ctypes.c_char_p, c_size)
dcfg_edge_instrs = _proto("dcfg_edge_instrs", c_size, vp, vp, vp, c_size, vp)

# (name of the accessor, its record type) for every table of struct dcfg
TABLES = {
    "processes": Process, "images": Image, "symbols": Symbol, "source_lines": SourceLine,
    "blocks": Block, "routines": Routine, "routine_nodes": RoutineNode, "loops": Loop,
    "edges": Edge, "file_names": FileName, "edge_types": EdgeType,
    "special_nodes": SpecialNode, "node_ids": c_u32, "counts": c_u64,
}
accessors = {name: _proto("dcfg_" + name, vp, vp, P(c_size)) for name in TABLES}

dcfg_trace_pull_open = _proto("dcfg_trace_pull_open", vp, ctypes.c_char_p, vp, c_size, vp,
                              c_size)
dcfg_trace_pull_next = _proto("dcfg_trace_pull_next", c_int, vp, P(TraceEvent), c_int, ERR)
dcfg_trace_pull_answer = _proto("dcfg_trace_pull_answer", None, vp, c_int)
dcfg_trace_pull_close = _proto("dcfg_trace_pull_close", None, vp, c_int)
dcfg_trace_fail_process = _proto("dcfg_trace_fail_process", c_int, ctypes.c_char_p, c_u64,
                                 ctypes.c_char_p, ERR)
dcfg_chunk_info = _proto("dcfg_chunk_info", P(ChunkInfo), vp)
dcfg_chunk_next = _proto("dcfg_chunk_next", ctypes.c_ssize_t, vp, vp, c_size)
dcfg_chunk_next_runs = _proto("dcfg_chunk_next_runs", ctypes.c_ssize_t, vp, vp, c_size,
                              P(RunEvent))
dcfg_chunk_emitted = _proto("dcfg_chunk_emitted", c_u64, vp)
dcfg_chunk_rewind = _proto("dcfg_chunk_rewind", None, vp)
dcfg_chunk_fail = _proto("dcfg_chunk_fail", c_int, vp, c_u64, ctypes.c_char_p, ctypes.c_char_p)
dcfg_chunk_fail_row = _proto("dcfg_chunk_fail_row", c_int, vp, ctypes.c_char_p, ctypes.c_char_p)
dcfg_chunk_window_new = _proto("dcfg_chunk_window_new", vp, vp, vp, c_u64, c_u64)
dcfg_chunk_window_start = _proto("dcfg_chunk_window_start", c_int, vp, vp)
dcfg_chunk_window_next = _proto("dcfg_chunk_window_next", ctypes.c_ssize_t, vp, vp, c_size)
dcfg_chunk_window_free = _proto("dcfg_chunk_window_free", None, vp)

# <dcfg/count.h>: the counter of dcfg-count's tables
COUNT_OK, COUNT_NO_EDGE, COUNT_KINDS, COUNT_NO_LINE = 0, -1, 9, (1 << 64) - 1
CountTableInfo = _struct("dcfg_count_table_info", [
    ("pid", c_u64), ("by", c_int), ("total_instructions", c_u64), ("rows", c_size),
    ("from_dcfg", c_int)])
CountedRow = _struct("dcfg_counted_row", [
    ("key", ctypes.c_char_p), ("id", c_u64), ("name", ctypes.c_char_p),
    ("between", ctypes.c_char_p * 6), ("n_between", c_size), ("executions", c_u64),
    ("iterations", c_u64), ("instructions", c_u64), ("share", ctypes.c_char_p)])
dcfg_count_by_name = _proto("dcfg_count_by_name", ctypes.c_char_p, c_int)
dcfg_counter_new = _proto("dcfg_counter_new", vp, vp, vp, c_int, ctypes.c_char_p, ERR)
dcfg_counter_free = _proto("dcfg_counter_free", None, vp)
dcfg_counter_thread = _proto("dcfg_counter_thread", c_int, vp, c_u64, ERR)
dcfg_counter_add = _proto("dcfg_counter_add", c_int, vp, vp, c_size, c_u64, ERR)
dcfg_counter_add_dcfg = _proto("dcfg_counter_add_dcfg", c_int, vp, ERR)
dcfg_counter_begin = _proto("dcfg_counter_begin", c_int, vp, c_u64, P(CountTableInfo), ERR)
dcfg_counter_next = _proto("dcfg_counter_next", P(CountedRow), vp)


def path_bytes(path):
    """A path as the C library takes it: bytes, the file system's encoding."""
    return os.fsencode(path)
