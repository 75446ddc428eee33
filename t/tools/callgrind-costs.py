#!/usr/bin/env python3
"""Costs from a callgrind.out file, the second route of t/record-*.bats.

Reads what
    valgrind --tool=callgrind --skip-plt=no --dump-line=yes --dump-instr=yes
        --compress-strings=no --compress-pos=no --demangle=no
        --callgrind-out-file=FILE PROGRAM
writes (callgrind-format.txt in ../shared/spec), the way callgrind_annotate
reads it: a cost line after "calls=" is the inclusive cost of a call and
is not the caller's own; "fl=", "fi=" and "fe=" set the file of the cost
lines that follow; "fn=" the function, "ob=" its object.

  callgrind-costs.py functions FILE IMAGE...
      "IMAGE<TAB>NAME<TAB>IR" per function of each IMAGE (an ELF file the
      run loaded), the function's exclusive Ir: the Ir of the instructions
      its symbol covers (see functions() for why not callgrind's fn=).
      IMAGE is printed as its base name; a PLT entry is NAME@plt, as
      objdump names it; code no symbol covers is IMAGE+0xOFFSET, as
      dcfg-count names it. Callgrind puts PLT stubs in object "???", at
      their run-time address; where the image lay is worked out from the
      calls into them.
  callgrind-costs.py lines FILE DIR
      "PATH:LINE<TAB>IR" for the source files under DIR (absolute paths).
  callgrind-costs.py total FILE
      the total Ir of the run, the sum of the exclusive costs (checked
      against the file's totals: line).
  callgrind-costs.py inclusive FILE
      "NAME<TAB>IR", the inclusive cost that callgrind_annotate
      --inclusive=yes prints for each function, summed over the files it
      is printed with.
Python 3 standard library only; nm(1) reads the symbols.
"""

import bisect
import collections
import os
import re
import struct
import subprocess
import sys


def parse(path, calls=None):
    """Yields (object, file, function, address, line, ir) per cost line
    that is a function's own cost; appends (object, function, callee,
    target address, call site address) to calls for each call."""
    positions = ["line"]
    obj = fl = fn = cfn = None
    call_to = None
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            if line.startswith("positions:"):
                positions = line.split(":", 1)[1].split()
                continue
            key, eq, value = line.partition("=")
            if eq and re.fullmatch(r"[a-z]+", key):
                if key == "ob":
                    obj = value
                elif key in ("fl", "fi", "fe"):
                    fl = value
                elif key == "fn":
                    fn = value
                elif key == "cfn":
                    cfn = value
                elif key == "calls":
                    call_to = value.split()
                continue
            if ":" in line.split()[0]:
                continue          # a header line: events:, summary:, ...
            fields = line.split()
            if len(fields) < len(positions) + 1:
                continue
            pos = dict(zip(positions, fields))
            addr = int(pos["instr"], 0) if "instr" in pos else None
            if call_to is not None:   # the inclusive cost of the call above
                if calls is not None and len(call_to) > 1 and addr is not None:
                    calls.append((obj, fn, cfn, int(call_to[1], 0), addr))
                call_to = None
                continue
            lno = int(pos.get("line", "0"), 0)
            yield obj, fl, fn, addr, lno, int(fields[len(positions)])


def totals(path):
    """The file's totals: line (the sum of its cost lines). Not summary:,
    which callgrind 3.19 writes without the cost of signal handlers (jumps:
    the summary is on_signal's 180 Ir short of the totals)."""
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            if line.startswith("totals:"):
                return int(line.split()[1])
    return None


def elf_extent(path):
    """The highest virtual address (end) of the ELF file's PT_LOAD segments."""
    with open(path, "rb") as f:
        head = f.read(64)
        if head[:4] != b"\x7fELF" or head[4] != 2:
            sys.exit(f"callgrind-costs.py: {path}: not a 64-bit ELF file")
        end = "<" if head[5] == 1 else ">"
        phoff, = struct.unpack(end + "Q", head[32:40])
        phentsize, phnum = struct.unpack(end + "HH", head[54:58])
        top = 0
        for i in range(phnum):
            f.seek(phoff + i * phentsize)
            ptype, _, _, vaddr, _, _, memsz, _ = struct.unpack(end + "IIQQQQQQ", f.read(56))
            if ptype == 1:
                top = max(top, vaddr + memsz)
        return top


def objdump(path, cache={}):
    if path not in cache:
        cache[path] = subprocess.run(["objdump", "-d", "--no-show-raw-insn", path],
                                     capture_output=True, text=True, check=True).stdout
    return cache[path]


def symbols(path):
    """(value, end, name) of the image's defined function symbols, and of
    its PLT entries as objdump names them (NAME@plt, from the relocation
    of the GOT slot each jumps through), sorted. A symbol without a size
    (_init in crti.o, crtstuff's frame_dummy) and a PLT entry run to the
    next label of objdump -d (a symbol, or a section's start) or the end
    of its section."""
    out = subprocess.run(["nm", "-S", "-n", "--defined-only", path], capture_output=True,
                         text=True, check=True).stdout
    syms = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "TtWwi":
            value = int(parts[0], 16)
            syms.append([value, value + int(parts[1], 16), parts[3]])
        elif len(parts) == 3 and parts[1] in "TtWwi":
            syms.append([int(parts[0], 16), None, parts[2]])
    labels = [(int(m.group(1), 16), m.group(2))
              for m in re.finditer(r"^([0-9a-f]+) <([^>]*)>:$", objdump(path), re.M)]
    starts = sorted({value for value, _ in labels} | section_ends(path))
    for i, (value, name) in enumerate(labels):
        if name.endswith("@plt"):
            syms.append([value, next_after(starts, value), name])
    for sym in syms:
        if sym[1] is None:
            sym[1] = next_after(starts, sym[0])
    return sorted(syms)


def section_ends(path):
    """The end addresses of the image's sections (objdump -h)."""
    out = subprocess.run(["objdump", "-h", path], capture_output=True, text=True,
                         check=True).stdout
    return {int(m.group(2), 16) + int(m.group(1), 16)
            for m in re.finditer(r"^ +\d+ \S+ +([0-9a-f]+) +([0-9a-f]+) ", out, re.M)}


def next_after(starts, value):
    i = bisect.bisect_right(starts, value)
    return starts[i] if i < len(starts) else value + 1


def direct_calls(path):
    """call or jump instruction address -> its target, from objdump -d."""
    targets = {}
    for m in re.finditer(r"^ +([0-9a-f]+):\s+(?:call|jmp)q?\s+([0-9a-f]+) <", objdump(path),
                         re.M):
        targets[int(m.group(1), 16)] = int(m.group(2), 16)
    return targets


def namer(path, image):
    """offset -> the name of the code there, as dcfg-count names a routine
    that starts there: the function symbol that covers it, or the PLT
    entry objdump names; code that neither covers (PLT0, the lazy-binding
    stub at the start of .plt) is IMAGE+0xLABEL, LABEL the address of the
    objdump label at or before it (the start of its section's run)."""
    syms = symbols(path)
    labels = sorted(int(m.group(1), 16)
                    for m in re.finditer(r"^([0-9a-f]+) <[^>]*>:$", objdump(path), re.M))

    def name(offset):
        for value, end, sym in syms:
            if value <= offset < end:
                return sym
        i = bisect.bisect_right(labels, offset) - 1
        return f"{image}+0x{labels[i] if i >= 0 else offset:x}"
    return name


def functions(path, images):
    """Each instruction's Ir, from callgrind's per-instruction dump, given
    to the function that covers its address in the ELF file: callgrind's
    own functions charge code that has no symbol it knows (PLT0, which
    every lazily bound PLT stub jumps to, and crtstuff's
    register_tm_clones, which frame_dummy jumps to) to the function that
    jumped there, where a DCFG's routines are the symbols' code."""
    per_instr = collections.Counter()    # (object, address) -> Ir
    calls = []
    for obj, _, fn, addr, _, ir in parse(path, calls):
        if addr is None:
            sys.exit(f"callgrind-costs.py: {path}: no instruction addresses (--dump-instr=yes)")
        per_instr[obj, addr] += ir
    rows = collections.Counter()
    for image in images:
        real = os.path.realpath(image)
        name = os.path.basename(image)
        mine = {o for o, _ in per_instr if o not in (None, "???") and os.path.realpath(o) == real}
        if not mine:
            sys.exit(f"callgrind-costs.py: {image}: no function of it in {path}")
        # Code callgrind finds in no object (PLT stubs) is at its run-time
        # address: the image's base there is a call's target address less
        # the target objdump reads at the call site, which callgrind gives
        # relative to the image (as it gives the image's own targets: those
        # give base 0 and are left out).
        sites = direct_calls(image)
        bases = collections.Counter(target - sites[site] for obj, _, _, target, site in calls
                                    if obj in mine and site in sites and target > sites[site])
        base = bases.most_common(1)[0][0] if bases else None
        top = base + elf_extent(image) if bases else None
        name_of = namer(image, name)
        for (obj, addr), ir in per_instr.items():
            if obj in mine:
                rows[name, name_of(addr)] += ir
            elif obj == "???" and base is not None and base <= addr < top:
                rows[name, name_of(addr - base)] += ir
    for (image, fn), ir in sorted(rows.items()):
        print(f"{image}\t{fn}\t{ir}")


def lines(path, directory):
    prefix = os.path.join(os.path.realpath(directory), "")
    per_line = collections.Counter()
    for _, fl, _, _, lno, ir in parse(path):
        if fl and fl.startswith(prefix):
            per_line[fl, lno] += ir
    for (fl, lno), ir in sorted(per_line.items()):
        print(f"{fl}:{lno}\t{ir}")


def total(path):
    n = sum(ir for *_, ir in parse(path))
    s = totals(path)
    if s is not None and s != n:
        sys.exit(f"callgrind-costs.py: {path}: the cost lines add up to {n}, the totals say {s}")
    print(n)


def inclusive(path):
    out = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", path],
                         capture_output=True, text=True, check=True).stdout
    per_fn = collections.Counter()
    for line in out.splitlines():
        # "  1,234 (12.34%)  FILE:FUNCTION [OBJECT]"
        m = re.match(r"^\s*([0-9,]+) \([^)]*\)  [^:]*:(.*) \[[^]]*\]$", line)
        if m:
            per_fn[m.group(2)] += int(m.group(1).replace(",", ""))
    for fn, ir in sorted(per_fn.items()):
        print(f"{fn}\t{ir}")


def main(argv):
    if len(argv) >= 4 and argv[1] == "functions":
        functions(argv[2], argv[3:])
    elif len(argv) == 4 and argv[1] == "lines":
        lines(argv[2], argv[3])
    elif len(argv) == 3 and argv[1] == "total":
        total(argv[2])
    elif len(argv) == 3 and argv[1] == "inclusive":
        inclusive(argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
