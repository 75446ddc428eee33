#!/usr/bin/env python3
"""profile-check: checks per-thread profiles (.bb) of dcfg-profile(1)
against their edge stream and DCFG, by a second method, each on its own.

usage: profile-check.py --slice-size N [--loop-aligned | --loop-grid] [--loop-image NAME]...
                        [--exclude-image NAME]... DCFG STREAM PROFILE...
       profile-check.py --none TID [-p PID] [--exclude-image NAME]... DCFG STREAM

The second form checks that thread TID should have no profile: it enters
no block outside the excluded images (dcfg-profile then writes no file).

The profile's thread is its "P:" line, its process the header's process=.
From the DCFG and the stream alone (dcfg-stream(5) version 1, plain, gzip or
bzip2) it works out the thread's block entries and their start positions
(dcfg-count(1) BASIC-BLOCK VECTORS, dcfg-expand(1) INSTRUCTION WINDOWS), the
executions of every PC, the slice boundaries of the rule (the grid of
issue 26's contract, fixed or --loop-grid; LoopPoint's, --loop-aligned;
with --loop-image), and then checks every
line of the profile: the header, P:, G:, the markers (each S: but the last
found again as the count-th execution of its PC, starting exactly at the
"# Slice ending at" value; the first the thread's first entry, count 1; the
last its last entry), the T lines (the sums over the entries between
consecutive markers, --exclude-image blocks left out; never empty), the
comment lines, the totals and the Block id trailer. A vector's dimensions
are the thread's blocks numbered 1, 2, ... in the order it first entered
them, and the Block id lines map them back, one per block entered. It also reports a
marker whose PC lies inside another block that ran (after its first
instruction, at or before its last): a simulator counts the PC's
executions there too, which the DCFG does not give.

Nothing here is taken from the C code: profile_model.py beside it reads
the stream line by line and the DCFG by Python's json module, and the
expected profile is built from scratch. Exit 0 and no output: the profile is right. Exit 1: what is wrong,
one finding a line, "profile-check: FILE:LINE: what". Exit 2: bad usage or
an input that cannot be read.
"""
import argparse
import bisect
import json
import sys
import zlib

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from profile_model import (InputError, Process, boundaries, dense_dims, escape_word,
                           expected_slices, image_matches, raw, read_bytes, read_thread)

PROG = "profile-check"
MAX_FINDINGS = 40


# ---- the profile ---------------------------------------------------------------


class Findings:
    def __init__(self, path):
        self.path = path
        self.list = []

    def add(self, line, msg):
        self.list.append("%s: %s:%d: %s" % (PROG, self.path, line, msg))


def hexnum(s):
    if not s.startswith("0x") or len(s) < 3 or (len(s) > 3 and s[2] == "0"):
        raise ValueError(s)
    if s[2:] != s[2:].lower():
        raise ValueError(s)
    return int(s, 16)


def decimal(s):
    if not s.isdigit() or (len(s) > 1 and s[0] == "0"):
        raise ValueError(s)
    return int(s)


def parse_marker(text):
    """(pc, count, image word, low, offset, source) of an S: line, or of an
    M: line with image None."""
    w = text.split(" ")
    if w[0] == "M:":
        if len(w) != 5 or w[3] != "no_image" or w[4] != "0":
            raise ValueError("an M: line is \"M: 0x<pc> <count> no_image 0\"")
        return hexnum(w[1]), decimal(w[2]), None, None, None, None
    if len(w) != 9 or w[0] != "S:" or w[5] != "+" or w[7] != "#":
        raise ValueError("an S: line is \"S: 0x<pc> <count> <image> 0x<low> + 0x<offset> # <file>:<line>\"")
    return hexnum(w[1]), decimal(w[2]), w[3], hexnum(w[4]), hexnum(w[6]), w[8]


def parse_vector(text):
    if not text.startswith("T"):
        raise ValueError("not a T line")
    body = text[1:]
    vec = []
    if body == "":
        return vec
    for tok in body.split(" "):
        p = tok.split(":")
        if len(p) != 3 or p[0] != "":
            raise ValueError("bad entry %r" % tok)
        vec.append((decimal(p[1]), decimal(p[2])))
    return vec


class Profile:
    """The profile's lines, by the layout of issue 26's contract."""

    def __init__(self, path, f):
        self.lines = read_bytes(path).decode("utf-8", "surrogateescape").split("\n")
        if self.lines and self.lines[-1] == "":
            self.lines.pop()
        else:
            f.add(len(self.lines), "the last line has no newline")
        self.f = f
        self.at = 0
        self.header = {}
        self.tid = None
        self.images = []       # (line, word, low)
        self.markers = []      # (line, parsed)
        self.slices = []       # (line of the T line, ending, unfiltered, vector)
        self.totals = {}
        self.blocks = []       # (line, text)
        self.ok = self.parse()

    def next(self, what):
        if self.at >= len(self.lines):
            raise ValueError("the file ends where %s should be" % what)
        self.at += 1
        return self.lines[self.at - 1]

    def peek(self):
        return self.lines[self.at] if self.at < len(self.lines) else None

    def parse(self):
        try:
            self.parse_top()
            self.parse_slices()
            self.parse_trailer()
        except ValueError as e:
            self.f.add(max(self.at, 1), "layout: %s" % e)
            return False
        return True

    def parse_top(self):
        w = self.next("the header").split(" ")
        if w[:3] != ["#", "dcfg-profile", "1"]:
            raise ValueError("the first line is not \"# dcfg-profile 1 ...\"")
        for kv in w[3:]:
            k, _, v = kv.partition("=")
            self.header[k] = v
        p = self.next("P:").split(" ")
        if len(p) != 2 or p[0] != "P:":
            raise ValueError("no \"P: <tid>\" line")
        self.tid = decimal(p[1])
        if not self.next("C:").startswith("C: sum:dummy Command: "):
            raise ValueError("no \"C: sum:dummy Command: ...\" line")
        while self.peek() is not None and self.peek().startswith("G: "):
            g = self.next("G:").split(" ")
            if len(g) != 6 or g[2] != "LowAddress:" or g[4] != "LoadOffset:":
                raise ValueError("a G: line is \"G: <image> LowAddress: 0x<low> LoadOffset: 0x<off>\"")
            self.images.append((self.at, g[1], hexnum(g[3])))
            hexnum(g[5])
        self.markers.append((self.at + 1, parse_marker(self.next("the first S:"))))

    def parse_slices(self):
        while self.peek() is not None and self.peek().startswith("# Slice ending at "):
            w = self.next("# Slice").split(" ")
            if len(w) != 7 or w[5] != "global" or w[4] != w[6]:
                raise ValueError("\"# Slice ending at <S> global <S>\"")
            ending = decimal(w[4])
            w = self.next("# Unfiltered count").split(" ")
            if len(w) != 4 or w[:3] != ["#", "Unfiltered", "count"]:
                raise ValueError("no \"# Unfiltered count <n>\" line")
            unfiltered = decimal(w[3])
            vec = parse_vector(self.next("a T line"))
            self.slices.append((self.at, ending, unfiltered, vec))
            self.markers.append((self.at + 1, parse_marker(self.next("the S: after a T line"))))
        if not self.slices:
            raise ValueError("no slice (\"# Slice ending at\" line)")

    def parse_trailer(self):
        for key in ("Dynamic instruction count ", "Dynamic unfiltered instruction count ", "SliceSize: "):
            line = self.next(key.strip())
            if not line.startswith(key):
                raise ValueError("\"%s<n>\" expected" % key)
            self.totals[key.strip()] = (self.at, decimal(line[len(key):]))
        while self.peek() is not None and self.peek().startswith("Block id: "):
            self.blocks.append((self.at + 1, self.next("Block id")))
        if self.next("End of bb") != "End of bb":
            raise ValueError("\"End of bb\" expected")
        if self.peek() is not None:
            raise ValueError("lines after \"End of bb\"")


# ---- the checks -------------------------------------------------------------------


def rule_of(opt):
    return "loop" if opt.loop_aligned else "loop-grid" if opt.loop_grid else "fixed"


def check_header(p, f, opt, dcfg_id, pid):
    want = {"slice-size": str(opt.slice_size), "rule": rule_of(opt),
            "dcfg": dcfg_id, "process": str(pid), "thread": str(p.tid)}
    for k, v in want.items():
        if p.header.get(k) != v:
            f.add(1, "header: %s=%s, expected %s" % (k, p.header.get(k), v))
    line, size = p.totals["SliceSize:"]
    if size != opt.slice_size:
        f.add(line, "SliceSize: %d, expected %d" % (size, opt.slice_size))


def check_images(p, f, proc):
    want = sorted((escape_word(path), low) for path, low in proc.images)
    got = sorted((w, low) for _, w, low in p.images)
    if got != want:
        line = p.images[0][0] if p.images else 3
        f.add(line, "G: lines name the images %s, expected %s" % (got, want))


def check_marker_fields(p, f, proc, line, m):
    """The image, low address, offset and source of a marker's PC."""
    pc, _, word, low, off, src = m
    blk = proc.by_pc.get(pc)
    if blk is None:
        return
    if blk["path"] is None or word is None:
        if blk["path"] is not None:
            f.add(line, "M: for 0x%x, which is in image %s" % (pc, escape_word(blk["path"])))
        elif word is not None:
            f.add(line, "S: for 0x%x, which is in an image without a name: M: expected" % pc)
        return
    if word != escape_word(blk["path"]) or low != blk["low"] or off != blk["off"]:
        f.add(line, "0x%x is %s 0x%x + 0x%x, the line says %s 0x%x + 0x%x" % (
            pc, escape_word(blk["path"]), blk["low"], blk["off"], word, low, off))
    if src not in blk["lines"]:
        f.add(line, "source %s, expected %s" % (src, " or ".join(blk["lines"])))


def check_marker_alone(p, f, proc, entries):
    """A simulator counts a PC's executions. The entries of every block
    that starts at the PC count (two blocks at one address, which the
    format allows when images are unloaded or code is modified:
    read_thread counts them together), but not the executions of the PC
    inside another block that ran (after its first instruction, at or
    before its last), which the DCFG does not give."""
    ran = sorted(set(e[0] for e in entries), key=lambda b: proc.blocks[b]["pc"])
    starts = [proc.blocks[b]["pc"] for b in ran]
    reach = []
    for b in ran:
        last = proc.blocks[b]["last"]
        reach.append(max(last, reach[-1]) if reach else last)
    for line, m in p.markers:
        pc = m[0]
        k = bisect.bisect_left(starts, pc)
        if k > 0 and reach[k - 1] >= pc:
            holder = next(ran[i] for i in range(k) if proc.blocks[ran[i]]["last"] >= pc)
            f.add(line, "0x%x is inside block %d, which ran: a simulator counts it there too" % (pc, holder))


def locate_markers(p, f, entries):
    """Each marker's entry index: the count-th execution of its PC."""
    where = {}
    for i, e in enumerate(entries):
        where[(e[3], e[2])] = i
    out = []
    for line, m in p.markers:
        i = where.get((m[0], m[1]))
        if i is None:
            f.add(line, "0x%x does not start a block for the %d-th time in the thread" % (m[0], m[1]))
        out.append(i)
    return out


def vector_of(entries, lo, hi, kept, dims):
    """The vector of entries [LO, HI): (dimension, instructions), by dimension."""
    v = {}
    for blk, _, _, _, n in entries[lo:hi]:
        if kept(blk):
            v[dims[blk]] = v.get(dims[blk], 0) + n
    return sorted(v.items())


def check_slices(p, f, entries, final, at, kept, dims):
    """T lines and comment lines against the entries between the markers the
    file names (wherever they are), and each marker's start."""
    first, last = at[0], at[-1]
    if first is not None and first != 0:
        f.add(p.markers[0][0], "the first marker is entry %d of the thread, not its first entry" % (first + 1))
    if first is None and entries:
        f.add(p.markers[0][0], "the first marker should be 0x%x 1" % entries[0][3])
    if last != len(entries) - 1:
        e = entries[-1]
        f.add(p.markers[-1][0], "the last marker should be the thread's last entry, 0x%x %d" % (e[3], e[2]))
    for j, (line, ending, unfiltered, vec) in enumerate(p.slices):
        if not vec:
            f.add(line, "an empty T line")
        if [b for b, _ in vec] != sorted(set(b for b, _ in vec)):
            f.add(line, "T line's ids are not ascending and distinct")
        lo, hi = at[j], at[j + 1]
        if lo is None or hi is None:
            continue
        last_slice = j == len(p.slices) - 1
        end = hi + 1 if last_slice else hi
        if end <= lo:
            f.add(line, "the markers around this slice are not in order")
            continue
        want = vector_of(entries, lo, end, kept, dims)
        if vec != want:
            f.add(line, "T line %s, the entries between its markers give %s" % (fmt_vec(vec), fmt_vec(want)))
        total = sum(e[4] for e in entries[lo:end])
        if unfiltered != total:
            f.add(line - 1, "# Unfiltered count %d, the entries between its markers give %d" % (unfiltered, total))
        stop = final if last_slice else entries[hi][1]
        if ending != stop:
            what = "the final position" if last_slice else "the start of 0x%x's %d-th execution" % (
                entries[hi][3], entries[hi][2])
            f.add(line - 2, "# Slice ending at %d, but %s is %d" % (ending, what, stop))


def fmt_vec(v):
    return "T" + " ".join(":%d:%d" % x for x in v) if v else "(empty)"


def check_grid(p, f, entries, at, want, rule):
    """The markers between the slices are the rule's boundaries."""
    name = "LoopPoint's rule" if rule == "loop" else "the grid rule"
    got = at[1:-1]
    want_at = [s[0] for s in want[1:]]
    if got == want_at:
        return
    for k in range(max(len(got), len(want_at))):
        g = got[k] if k < len(got) else None
        w = want_at[k] if k < len(want_at) else None
        if g != w:
            line = p.markers[k + 1][0] if k + 1 < len(p.markers) else p.markers[-1][0]
            wt = "0x%x %d (start %d)" % (entries[w][3], entries[w][2], entries[w][1]) if w is not None else "no more"
            gt = "0x%x %d (start %d)" % (entries[g][3], entries[g][2], entries[g][1]) if g is not None else "?"
            f.add(line, "boundary %d is %s, %s gives %s" % (k + 1, gt, name, wt))
            return


def check_totals(p, f, entries, kept):
    line, dyn = p.totals["Dynamic instruction count"]
    sum_t = sum(n for s in p.slices for _, n in s[3])
    want = sum(e[4] for e in entries if kept(e[0]))
    if dyn != sum_t or dyn != want:
        f.add(line, "Dynamic instruction count %d: the T lines add up to %d, the thread's kept blocks to %d" % (
            dyn, sum_t, want))
    line, unf = p.totals["Dynamic unfiltered instruction count"]
    want = sum(e[4] for e in entries)
    if unf != want:
        f.add(line, "Dynamic unfiltered instruction count %d, expected %d" % (unf, want))


def check_blocks(p, f, proc, entries, dims):
    """One Block id line per block the thread entered, by dimension."""
    counts = {}
    for e in entries:
        counts[e[0]] = counts.get(e[0], 0) + 1
    want = []
    for bid in sorted(dims, key=dims.get):
        b = proc.blocks[bid]
        want.append("Block id: %d 0x%x:0x%x static instructions: %d block count: %d block size: %d" % (
            dims[bid], b["pc"], b["last"], b["ninstr"], counts[bid], b["size"]))
    got = [t for _, t in p.blocks]
    covered = set(int(t.split(" ")[3][:t.split(" ")[3].index(":")], 16) for t in got
                  if len(t.split(" ")) > 3 and ":" in t.split(" ")[3])
    for line, m in p.markers:
        if m[0] not in covered:
            f.add(line, "no Block id line covers the marker's PC 0x%x" % m[0])
    if got != want:
        for k in range(max(len(got), len(want))):
            g = got[k] if k < len(got) else None
            w = want[k] if k < len(want) else None
            if g != w:
                line = p.blocks[k][0] if k < len(p.blocks) else (p.blocks[-1][0] + 1 if p.blocks else 1)
                f.add(line, "%r, expected %r" % (g, w))
                return


def check_none(opt):
    excl = [raw(n) for n in opt.exclude_image]
    try:
        proc = Process(json.loads(read_bytes(opt.dcfg).decode("utf-8", "surrogateescape")), opt.pid)
        thread = read_thread(proc, opt.stream, opt.none)
    except (OSError, ValueError, InputError, EOFError) as e:
        print("%s: %s" % (PROG, e), file=sys.stderr)
        return 2
    kept = [b for b, _, _ in thread.entries if not image_matches(proc.blocks[b]["path"], excl)]
    if kept:
        print("%s: %s: thread %d enters %d blocks outside the excluded images: it should have a profile" % (
            PROG, opt.stream, opt.none, len(kept)))
        return 1
    return 0


def main():
    ap = argparse.ArgumentParser(prog=PROG, description="Check a dcfg-profile(1) profile by a second method.")
    ap.add_argument("--slice-size", type=int, default=0)
    ap.add_argument("--none", type=int, metavar="TID")
    ap.add_argument("-p", "--pid", type=int)
    ap.add_argument("--loop-aligned", action="store_true")
    ap.add_argument("--loop-grid", action="store_true")
    ap.add_argument("--loop-image", action="append", default=[])
    ap.add_argument("--exclude-image", action="append", default=[])
    ap.add_argument("dcfg")
    ap.add_argument("stream")
    ap.add_argument("profile", nargs="*")
    opt = ap.parse_args()
    if opt.none is not None:
        return check_none(opt)
    if opt.slice_size <= 0 or not opt.profile:
        ap.error("--slice-size N > 0 and a PROFILE are needed")
    try:
        data = read_bytes(opt.dcfg)
        dcfg_id = "%08x:%d" % (zlib.crc32(data) & 0xffffffff, len(data))
        dcfg = json.loads(data.decode("utf-8", "surrogateescape"))
    except (OSError, ValueError) as e:
        print("%s: %s" % (PROG, e), file=sys.stderr)
        return 2
    worst = 0
    for path in opt.profile:
        worst = max(worst, check_profile(opt, dcfg, dcfg_id, path))
    return worst


def check_profile(opt, dcfg, dcfg_id, path):
    """Checks one profile; 0 right, 1 findings printed, 2 unreadable."""
    loop_names = [raw(n) for n in opt.loop_image]
    excl_names = [raw(n) for n in opt.exclude_image]
    f = Findings(path)
    try:
        p = Profile(path, f)
        try:
            pid = int(p.header.get("process", ""))
        except ValueError:
            pid = None
        proc = Process(dcfg, pid)
        tid = p.tid if p.tid is not None else 0
        thread = read_thread(proc, opt.stream, tid)
    except (OSError, ValueError, InputError, EOFError) as e:
        print("%s: %s" % (PROG, e), file=sys.stderr)
        return 2
    if p.ok:
        entries = [(b, s, c, proc.blocks[b]["pc"], proc.blocks[b]["ninstr"]) for b, s, c in thread.entries]

        kept_of = {}

        def kept(b):
            if b not in kept_of:
                kept_of[b] = not image_matches(proc.blocks[b]["path"], excl_names)
            return kept_of[b]

        def eligible(b):
            if not opt.loop_aligned and not opt.loop_grid:
                return True
            return b in proc.heads and (not loop_names or image_matches(proc.blocks[b]["path"], loop_names))
        check_header(p, f, opt, dcfg_id, proc.pid)
        if opt.pid is not None and opt.pid != proc.pid:
            f.add(1, "process %d, -p asks for %d" % (proc.pid, opt.pid))
        check_images(p, f, proc)
        if not entries:
            f.add(1, "thread %d enters no block in the stream: it should have no profile" % tid)
        else:
            want = expected_slices(entries, boundaries(rule_of(opt), entries, eligible, opt.slice_size), kept)
            if not want:
                f.add(1, "every block of thread %d is excluded: it should have no profile" % tid)
            for line, m in p.markers:
                check_marker_fields(p, f, proc, line, m)
            check_marker_alone(p, f, proc, entries)
            at = locate_markers(p, f, entries)
            dims = dense_dims(entries)
            check_slices(p, f, entries, thread.final, at, kept, dims)
            if want and None not in at:
                check_grid(p, f, entries, at, want, rule_of(opt))
            check_totals(p, f, entries, kept)
            check_blocks(p, f, proc, entries, dims)
    for msg in f.list[:MAX_FINDINGS]:
        print(msg)
    if len(f.list) > MAX_FINDINGS:
        print("%s: %s: %d findings more" % (PROG, path, len(f.list) - MAX_FINDINGS))
    return 1 if f.list else 0


if __name__ == "__main__":
    sys.exit(main())
