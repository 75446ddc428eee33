"""The second method's model for profile-check.py: the DCFG read by
Python's json module, the edge stream line by line (dcfg-stream(5) version
1), a thread's block entries placed as dcfg-count(1) BASIC-BLOCK VECTORS
says, the slicing rules (the grid of issue 26's contract, and LoopPoint's,
each boundary N or more after the one before), and the escape of names of
dcfg-stream(5) "Names". Nothing here comes from the C code."""
import bz2
import gzip
import os

class InputError(Exception):
    pass


def read_bytes(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    elif data[:3] == b"BZh":
        data = bz2.decompress(data)
    return data


# ---- names: the escape of dcfg-stream(5) "Names", as a word -------------

UNICODE_SPACES = {0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000}
UNICODE_SPACES.update(range(0x2000, 0x200B))
SHORT = {0x5C: "\\\\", 0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}


def utf8_char(b, i):
    """The length of the valid UTF-8 character (RFC 3629) at b[i], or 0."""
    for n in (2, 3, 4):
        try:
            c = b[i:i + n].decode("utf-8", "strict")
        except UnicodeDecodeError:
            continue
        if len(c) == 1:
            return n
    return 0


def escape_word(name, also=" "):
    """NAME (bytes) escaped as dcfg-stream(5) says, each byte of ALSO and of
    a Unicode space as \\xHH too, so that it stays one word."""
    out = []
    i = 0
    while i < len(name):
        c = name[i]
        if c < 0x80:
            if chr(c) in also:
                out.append("\\x%02x" % c)
            elif c in SHORT:
                out.append(SHORT[c])
            elif c < 0x20 or c == 0x7F:
                out.append("\\x%02x" % c)
            else:
                out.append(chr(c))
            i += 1
            continue
        n = utf8_char(name, i)
        if n == 0:
            out.append("\\x%02x" % c)
            i += 1
            continue
        cp = ord(name[i:i + n].decode("utf-8"))
        if 0x80 <= cp <= 0x9F or cp in UNICODE_SPACES:
            out.extend("\\x%02x" % x for x in name[i:i + n])
        else:
            out.append(name[i:i + n].decode("utf-8"))
        i += n
    return "".join(out)


# ---- the DCFG ----------------------------------------------------------------


def rows(table):
    """A table's rows as dicts, columns by the header's names."""
    if not isinstance(table, list) or not table:
        return []
    head = table[0]
    return [dict(zip(head, r)) for r in table[1:]]


def number(v):
    if isinstance(v, str):
        return int(v, 0)
    return int(v)


def raw(s):
    return s.encode("utf-8", "surrogateescape")


class Process:
    """What the checks need of one process of the DCFG."""

    def __init__(self, dcfg, pid):
        names = {r["FILE_NAME_ID"]: raw(r["FILE_NAME"]) for r in rows(dcfg.get("FILE_NAMES"))}
        procs = {number(r["PROCESS_ID"]): r["PROCESS_DATA"] for r in rows(dcfg.get("PROCESSES"))}
        if pid is None:
            if len(procs) != 1:
                raise InputError("the DCFG has %d processes: which one?" % len(procs))
            pid = next(iter(procs))
        if pid not in procs:
            raise InputError("process %d is not in the DCFG" % pid)
        self.pid = pid
        data = procs[pid]
        self.images = []          # (path bytes, low), images with a file name
        self.blocks = {}          # id -> dict
        self.heads = set()        # loop head block ids
        for im in rows(data.get("IMAGES")):
            idata = im["IMAGE_DATA"]
            # an image without a file name is no image to a profile: its
            # blocks get M: markers (dcfg-profile(1))
            path = names.get(idata.get("FILE_NAME_ID"))
            low = number(im["LOAD_ADDR"])
            if path is not None:
                self.images.append((path, low))
            src = []
            for s in rows(idata.get("SOURCE_DATA")):
                src.append((number(s["ADDR_OFFSET"]), number(s["SIZE"]),
                            names.get(s["FILE_NAME_ID"], b""), number(s["LINE_NUM"])))
            for b in rows(idata.get("BASIC_BLOCKS")):
                off = number(b["ADDR_OFFSET"])
                size = number(b["SIZE"])
                # the last instruction's address: LAST_INSTR_OFFSET when it
                # is an offset in the block, else the block's last byte
                last_off = number(b["LAST_INSTR_OFFSET"]) if "LAST_INSTR_OFFSET" in b else size
                last = low + off + (last_off if last_off < size else max(size - 1, 0))
                lines = ["%s:%d" % (escape_word(f), ln) for (o, sz, f, ln) in src if o <= off < o + sz]
                self.blocks[b["NODE_ID"]] = {
                    "pc": low + off, "low": low, "off": off, "path": path,
                    "size": size, "last": last, "ninstr": number(b["NUM_INSTRS"]),
                    "lines": lines or ["Unknown:0"]}
            for r in rows(idata.get("ROUTINES")):
                for lp in rows(r.get("LOOPS")):
                    self.heads.add(lp["LOOP_HEAD_NODE_ID"])
        self.by_pc = {}
        for bid in sorted(self.blocks, reverse=True):
            self.by_pc[self.blocks[bid]["pc"]] = self.blocks[bid]
        self.edges = {}
        for e in rows(data.get("EDGES")):
            self.edges[e["EDGE_ID"]] = (e["SOURCE_NODE_ID"], e["TARGET_NODE_ID"])

    def ninstr(self, node):
        b = self.blocks.get(node)
        return b["ninstr"] if b else 0


def image_matches(path, names):
    return path is not None and any(path == n or os.path.basename(path) == n for n in names)


# ---- the stream: the thread's entries ----------------------------------------


class Thread:
    def __init__(self):
        self.entries = []   # (block id, start, count of its pc so far)
        self.final = 0      # the position after the last line
        self.seen = False


def read_thread(proc, path, tid):
    """The entries of thread TID of PROC's process in the stream at PATH."""
    t = Thread()
    pos = 0
    pc_count = {}
    cur_pid = None
    cur_tid = None
    lines = read_bytes(path).decode("utf-8", "surrogateescape").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0] != "# dcfg-stream 1":
        raise InputError("%s:1: not a version 1 edge stream" % path)
    for no, line in enumerate(lines[1:], 2):
        if line.startswith("#"):
            w = line.split(" ")
            if len(w) == 3 and w[1] == "process":
                cur_pid, cur_tid = int(w[2]), None
            elif len(w) == 3 and w[1] == "thread":
                cur_tid = int(w[2])
            elif len(w) == 5 and w[1] == "chunk":
                if cur_pid == proc.pid and (0 if cur_tid is None else cur_tid) == tid:
                    if int(w[2]) < pos:
                        raise InputError("%s:%d: a chunk before the position %d" % (path, no, pos))
                    pos = int(w[2])
                    t.final = pos
            elif len(w) >= 2 and w[1] in ("run", "end"):
                raise InputError("%s:%d: runs: only version 1 streams" % (path, no))
            continue
        if cur_pid is None:
            raise InputError("%s:%d: an edge before any process" % (path, no))
        if cur_pid != proc.pid or (0 if cur_tid is None else cur_tid) != tid:
            continue
        t.seen = True
        eid = int(line.split("\t", 1)[0])
        if eid not in proc.edges:
            raise InputError("%s:%d: edge %d is not in the DCFG" % (path, no, eid))
        src, dst = proc.edges[eid]
        s = proc.ninstr(src)
        if proc.ninstr(dst) > 0:
            pc = proc.blocks[dst]["pc"]
            pc_count[pc] = pc_count.get(pc, 0) + 1
            t.entries.append((dst, pos + s, pc_count[pc]))
        pos += s
        t.final = pos
    return t


def dense_dims(entries):
    """Each block's dimension in the thread's vectors: 1, 2, ... in the
    order the thread first entered the blocks, as PinPoints numbers them.
    Blocks of excluded images get one too: they are in no vector, but a
    marker may be theirs, and the Block id lines must name every marker."""
    dims = {}
    for e in entries:
        dims.setdefault(e[0], len(dims) + 1)
    return dims


def grid_boundaries(entries, eligible, n):
    """Entry indices of the boundaries: for k = 1, 2, ..., the first
    eligible entry whose start is >= k*N, several k giving one."""
    out = []
    k = 1
    for i, e in enumerate(entries):
        start = e[1]
        if eligible(e[0]) and start >= k * n:
            out.append(i)
            k = start // n + 1
    return out


def looppoint_boundaries(entries, eligible, n):
    """Entry indices of the boundaries under LoopPoint's rule: each the
    first eligible entry that starts N or more after the boundary before
    (after 0, the thread's start, for the first)."""
    out = []
    last = 0
    for i, e in enumerate(entries):
        if eligible(e[0]) and e[1] >= last + n:
            out.append(i)
            last = e[1]
    return out


def boundaries(rule, entries, eligible, n):
    """The boundaries of RULE: "fixed" and "loop-grid" on the grid, "loop" LoopPoint's."""
    return (looppoint_boundaries if rule == "loop" else grid_boundaries)(entries, eligible, n)


def expected_slices(entries, boundaries, kept):
    """Slices as [lo, hi) entry ranges, cut at the boundaries, each empty
    one (no kept block) joined to the next, the last to the one before."""
    cuts = [0] + [i for i in boundaries if i > 0] + [len(entries)]
    full = [any(kept(entries[i][0]) for i in range(cuts[j], cuts[j + 1]))
            for j in range(len(cuts) - 1)]
    slices = []
    lo = 0
    for j in range(len(cuts) - 1):
        if full[j]:
            slices.append([lo, cuts[j + 1]])
            lo = cuts[j + 1]
    if slices:
        slices[-1][1] = len(entries)
    return slices
