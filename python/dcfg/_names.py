"""Names as dcfg-tools writes them: the escaping of dcfg-stream(5),
section Names, and the names of code of dcfg-count(1), NAMES (the rules of
lib/common/output.c and lib/dcfg/names.c, which are not public)."""

import re

from ._common import np

_PLAIN = re.compile(rb"[\x20-\x5b\x5d-\x7e]*\Z")
_SHORT = {0x5C: "\\\\", 0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}


def raw(name):
    """NAME (str from the package, or bytes) as the bytes of the file."""
    return name.encode("utf-8", "surrogateescape") if isinstance(name, str) else bytes(name)


def _utf8_kept(b, i):
    """The length of the valid UTF-8 character at B[I] (2 to 4 bytes), or 0
    when none starts there or it is a C1 control (U+0080..U+009F)."""
    c0 = b[i]
    if 0xC2 <= c0 <= 0xDF:
        n, c = 2, c0 & 0x1F
    elif 0xE0 <= c0 <= 0xEF:
        n, c = 3, c0 & 0x0F
    elif 0xF0 <= c0 <= 0xF4:
        n, c = 4, c0 & 0x07
    else:
        return 0
    if i + n > len(b):
        return 0
    for k in range(1, n):
        if b[i + k] & 0xC0 != 0x80:
            return 0
        c = c << 6 | (b[i + k] & 0x3F)
    if (n == 3 and c < 0x800) or (n == 4 and c < 0x10000) or c > 0x10FFFF or \
            0xD800 <= c <= 0xDFFF or c <= 0x9F:
        return 0
    return n


def escape(name):
    """NAME (str, or bytes) as every text output of dcfg-tools writes it
    (dcfg-stream(5), Names): a backslash, tab, newline or carriage return
    as \\\\, \\t, \\n, \\r; another byte below 0x20, 0x7f, a byte of a C1
    control and a byte that is not part of valid UTF-8 as \\xHH; the
    rest, valid UTF-8, as it is."""
    b = raw(name)
    if _PLAIN.match(b):
        return b.decode("ascii")
    out, i, n = [], 0, len(b)
    while i < n:
        c = b[i]
        if 0x20 <= c < 0x7F and c != 0x5C:
            out.append(chr(c))
            i += 1
            continue
        k = _utf8_kept(b, i) if c >= 0x80 else 0
        if k:
            out.append(b[i:i + k].decode("utf-8"))
            i += k
            continue
        out.append(_SHORT.get(c) or "\\x%02x" % c)
        i += 1
    return "".join(out)


def column(table, field):
    """Column FIELD of a table as a list (ranges as (first, count) tuples)."""
    if np is not None:
        return table[field].tolist()
    return [getattr(r, field) for r in table]


def _base(file):
    """The part after the last slash (the whole name when it ends in one)."""
    at = file.rfind(b"/")
    return file[at + 1:] if at >= 0 and at + 1 < len(file) else file


def _shared(names):
    """For each (name, owner) of NAMES (name None: left out), whether
    another owner has that name too."""
    owners = {}
    for name, owner in names:
        if name is not None:
            owners.setdefault(name, set()).add(owner)
    return [name is not None and len(owners[name]) > 1 for name, _ in names]


class CodeNames:
    """The names of code of one process (dcfg-count(1), NAMES): by symbol,
    symbol+0xOFF, IMAGE+0xOFF, and "@IMAGE" after a symbol name another
    image of the process also has.  Text as in the file (unescaped):
    escape() gives what the commands write."""

    def __init__(self, dcfg, process_index):
        self.d = dcfg
        p = dcfg.processes[process_index]
        self.pid = int(p["pid"]) if np is not None else p.pid
        self.img_first, n_img = (int(v) for v in (p["images"] if np is not None else p.images))
        sym_first, n_sym = (int(v) for v in (p["symbols"] if np is not None else p.symbols))
        images = dcfg.images[self.img_first:self.img_first + n_img]
        ids, fids = column(images, "id"), column(images, "file_name_id")
        self.load, self.size = column(images, "load_addr"), column(images, "size")
        files = [dcfg.file_name(f) for f in fids]
        files = [None if f is None else raw(f) for f in files]
        base_shared = _shared([(None if f is None else _base(f), i) for i, f in enumerate(files)])
        file_shared = _shared([(f, i) for i, f in enumerate(files)])
        self.labels = []
        for i, f in enumerate(files):
            if f is None:
                self.labels.append(b"image%d" % ids[i])
                continue
            label = f if base_shared[i] and not file_shared[i] else _base(f)
            self.labels.append(label + (b"#%d" % ids[i] if file_shared[i] else b""))
        syms = dcfg.symbols[sym_first:sym_first + n_sym]
        self.sym_first = sym_first
        self.sym_names = [raw(dcfg.string(s)) for s in column(syms, "name")]
        self.sym_image = column(syms, "image")
        self.sym_shared = _shared(list(zip(self.sym_names, self.sym_image)))
        self.block_image = None

    def _image_at(self, addr):
        """The local index of the image of ADDR: its block's, else the one
        whose range holds it; None."""
        b = self.d.block_at(self.pid, addr)
        if b is not None:
            im = int(self.d.blocks[b]["image"]) if np is not None else self.d.blocks[b].image
            if im < len(self.d.images):
                return im - self.img_first
            return None
        for i, (lo, n) in enumerate(zip(self.load, self.size)):
            if addr >= lo and addr - lo < n:
                return i
        return None

    def at(self, addr):
        """The name of the code at ADDR, as bytes of the file."""
        found = self.d.symbol_at(self.pid, addr)
        if found is not None:
            s, off = found
            s -= self.sym_first
            name = self.sym_names[s]
            if off:
                name += b"+0x%x" % off
            if self.sym_shared[s]:
                name += b"@" + self.labels[self.sym_image[s] - self.img_first]
            return name
        i = self._image_at(addr)
        if i is None:
            return b"-+0x%x" % addr
        return self.labels[i] + b"+0x%x" % (addr - self.load[i])


def names_of(dcfg, pid):
    """The CodeNames of process PID of DCFG, made once per DCFG."""
    cache = dcfg.__dict__.setdefault("_code_names", {})
    if pid not in cache:
        cache[pid] = CodeNames(dcfg, dcfg.process(pid))
    return cache[pid]


def code_name(dcfg, pid, addr):
    """The name of the code at ADDR in process PID of the loaded DCFG
    (symbols and images kept), as dcfg-count and every table, profile and
    picture of dcfg-tools name code (dcfg-count(1), NAMES): "main",
    "sym+0x1c", "IMAGE+0x40", "_init@libc.so.6".  The text is the file's;
    escape() gives what the commands write."""
    return names_of(dcfg, pid).at(addr).decode("utf-8", "surrogateescape")
