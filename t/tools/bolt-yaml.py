#!/usr/bin/env python3
"""LLVM BOLT's view of a profile, for t/record-bolt.bats.

  bolt-yaml.py ran DCFG BINARY
      The functions of BINARY that ran in the DCFG, one "ADDRESS NAME" a
      line: the ELF symbols (readelf -s) whose bytes hold a block of
      BINARY's image with a non-zero count. A second route to what
      dcfg-convert finds.
  bolt-yaml.py profiled LOG
      The functions llvm-bolt printed with -print-profile, one "ADDRESS
      EXEC SIMPLE NAME" a line (EXEC 0 where it printed none).
  bolt-yaml.py report LOG
      llvm-bolt's summary lines as "KEY VALUE": profiled, functions, stale,
      ignored, not-optimized, mismatching, out-of-range (0 where the line
      is missing).
  bolt-yaml.py clean LOG PA DCFG BINARY
      What is wrong in llvm-bolt's report LOG (with -report-stale and
      -print-profile) on BINARY's pre-aggregated profile PA, one line a
      problem, exit 1 when there is one: anything stale, ignored or out of
      range, a range it could not walk but those it never can (unwalkable),
      a function that ran in the DCFG without a profile.
  bolt-yaml.py unwalkable PA LOG BINARY
      The count of the ranges of the pre-aggregated profile PA that BOLT
      cannot walk (LOG: llvm-bolt -print-profile's output on it), see
      unwalkable().
  bolt-yaml.py compare INSTRUMENTED.yaml OURS.yaml LOG DCFG BINARY
      Compares the profiles llvm-bolt -w wrote from BOLT's instrumentation
      and from ours (LOG: llvm-bolt -print-profile's output on ours):
      every function's exec, every block's exec, successor and call
      counts. Prints a summary, the counts excluded by cause (exclusions())
      and each other difference; exits 1 when there is one.
"""
import bz2
import gzip
import json
import os
import re
import subprocess
import sys


def die(msg):
    sys.stderr.write("bolt-yaml.py: %s\n" % msg)
    sys.exit(2)


# --- BOLT's YAML profile (llvm-bolt -w), as its YAML writer lays it out

FLOW_ITEM = re.compile(r"\{([^}]*)\}")


def flow_list(text):
    """[ { bid: 2, cnt: 1 }, ... ] as a list of dicts of ints."""
    items = []
    for body in FLOW_ITEM.findall(text):
        item = {}
        for field in body.split(","):
            key, _, value = field.partition(":")
            item[key.strip()] = int(value.strip(), 0)
        items.append(item)
    return items


def unquote(name):
    if name.startswith("'") and name.endswith("'"):
        return name[1:-1].replace("''", "'")
    if name.startswith('"') and name.endswith('"'):
        return json.loads(name)
    return name


def read_yaml(path):
    """{name: {"exec": N, "fid": F, "blocks": {bid: {"exec", "succ", "calls"}}}};
    calls as [{off, fid, cnt[, disc]}] (name_calls() names them)."""
    functions = {}
    fn = block = None
    pending = ""
    with open(path) as f:
        lines = f.read().split("\n")
    for raw in lines:
        line = pending + raw.strip() if pending else raw.strip()
        if line.count("[") > line.count("]"):
            pending = line + " "
            continue
        pending = ""
        key, _, value = line.lstrip("- ").partition(":")
        value = value.strip()
        if line.startswith("- name:") and raw.startswith("  - "):
            fn = {"exec": 0, "blocks": {}}
            functions[unquote(value)] = fn
            block = None
        elif fn is None:
            continue
        elif key == "fid" and block is None:
            fn["fid"] = int(value)
        elif key == "exec" and block is None:
            fn["exec"] = int(value)
        elif key == "bid":
            block = {"exec": 0, "succ": {}, "calls": []}
            fn["blocks"][int(value)] = block
        elif key == "exec" and block is not None:
            block["exec"] = int(value)
        elif key == "succ":
            block["succ"] = {i["bid"]: i["cnt"] for i in flow_list(value)}
        elif key == "calls":
            block["calls"] = flow_list(value)
    return functions


def name_calls(*profiles):
    """Keys every call by (offset, callee name, discriminator). A profile
    lists only the functions it has counts for, but BOLT numbers the
    functions of a binary the same way each run: the names come from all."""
    fid_name = {0: "[unknown]"}
    for functions in profiles:
        fid_name.update((fn["fid"], name) for name, fn in functions.items() if "fid" in fn)
    for functions in profiles:
        for fn in functions.values():
            for block in fn["blocks"].values():
                calls = {}
                for c in block["calls"]:
                    k = (c["off"], fid_name.get(c["fid"], "fid %d" % c["fid"]), c.get("disc", 0))
                    calls[k] = calls.get(k, 0) + c["cnt"]
                block["calls"] = calls


# --- llvm-bolt's printed report

REPORT = {
    "profiled": r"(\d+) out of \d+ functions in the binary .* have non-empty execution profile",
    "functions": r"\d+ out of (\d+) functions in the binary .* have non-empty execution profile",
    "stale": r"(\d+) \(.*of all profiled\) functions? have invalid \(possibly stale\) profile",
    "ignored": r"profile for (\d+) objects was ignored",
    "not-optimized": r"(\d+) functions? with profile could not be optimized",
    "mismatching": r"traces mismatching disassembled function contents: (\d+)",
    "out-of-range": r"Out of range traces involving unknown regions: (\d+)",
}


def report(path):
    """{key: value} of REPORT's lines, 0 where one is missing."""
    text = open(path, errors="replace").read()
    values = {}
    for key, pattern in REPORT.items():
        m = re.search(pattern, text)
        values[key] = int(m.group(1)) if m else 0
    return values


class Function:
    def __init__(self, name):
        self.name, self.fields, self.ctc_blocks, self.blocks = name, {}, set(), 0

    @property
    def address(self):
        return int(self.fields.get("Address", "0"), 16)

    @property
    def exec_count(self):
        count = self.fields.get("Exec Count", "0")
        return int(count) if count.isdigit() else 0

    @property
    def simple(self):
        return self.fields.get("IsSimple", "1") == "1"


def profiled(path):
    """-print-profile's functions, by address: their header's fields, and
    the blocks (their index is the YAML's bid) that end in a conditional
    tail call."""
    result, fn, in_header = {}, None, False
    for line in open(path, errors="replace"):
        m = re.match(r'Binary Function "(.*)" after attaching profile \{', line)
        if m:
            fn = Function(re.sub(r"\(\*\d+\)$", "", m.group(1)))
            in_header = True
            continue
        if fn is None:
            continue
        if in_header:
            if line.startswith("}"):
                in_header = False
                result[fn.address] = fn
            else:
                key, _, value = line.partition(":")
                fn.fields.setdefault(key.strip(), value.strip())
        elif line.startswith("End of Function"):
            fn = None
        elif re.match(r"\.\S+ \(\d+ instructions", line):
            fn.blocks += 1
        elif re.match(r"\s+[0-9a-f]+:\s+j(?!mp)[a-z]+\s.*# TAILCALL", line):
            fn.ctc_blocks.add(fn.blocks - 1)
    return result


def unwalkable(pa_path, log_path, binary):
    """The count of the pre-aggregated file's ranges (F, f) that BOLT cannot
    walk through its blocks, which its report calls "traces mismatching
    disassembled function contents": those in a PLT section (BOLT has no
    CFG for PLT stubs) or in a function BOLT did not find simple
    (DataAggregator::getFallthroughsInTrace gives up on both)."""
    ranges = [(start, end) for name, start, end in elf_sections(binary).values()
              if name.startswith(".plt")]
    ranges += [(fn.address, fn.address + int(fn.fields.get("Size", "0"), 16))
               for fn in profiled(log_path).values() if not fn.simple]
    total = 0
    for line in open(pa_path):
        f = line.split()
        if f and f[0] in ("F", "f") and any(a <= int(f[1], 16) < b for a, b in ranges):
            total += int(f[3])
    return total


# --- the DCFG, read directly (not through the tools under test)

def open_any(path):
    with open(path, "rb") as f:
        magic = f.read(3)
    if magic == b"BZh":
        return bz2.open(path, "rt")
    if magic[:2] == b"\x1f\x8b":
        return gzip.open(path, "rt")
    return open(path)


def readelf(binary, *args):
    return subprocess.run(["readelf", "-W"] + list(args) + [binary],
                          capture_output=True, text=True, check=True).stdout


def elf_sections(binary):
    """{index: (name, start, end)} of the section headers."""
    sections = {}
    for line in readelf(binary, "-S").split("\n"):
        m = re.match(r"\s*\[\s*(\d+)\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", line)
        if m:
            start = int(m.group(3), 16)
            sections[m.group(1)] = (m.group(2), start, start + int(m.group(4), 16))
    return sections


def elf_functions(binary):
    """[(address, size, name)] of the FUNC symbols of .symtab; a symbol of
    size 0 (_init, _fini, crtstuff's) is given the bytes up to the next
    symbol or the end of its section."""
    section_end = {k: end for k, (_, _, end) in elf_sections(binary).items()}
    table, syms, starts = None, [], set()
    for line in readelf(binary, "-s").split("\n"):
        m = re.match(r"Symbol table '(.*)'", line)
        if m:
            table = m.group(1)
            continue
        f = line.split()
        if table == ".symtab" and len(f) >= 8 and f[6].isdigit():
            starts.add(int(f[1], 16))
            if f[3] == "FUNC":
                syms.append((int(f[1], 16), int(f[2], 0), f[7], f[6]))
    result = set()
    for addr, size, name, section in syms:
        if not size:
            later = [a for a in starts if a > addr]
            size = min(later + [section_end.get(section, addr + 1)]) - addr
        result.add((addr, size, name))
    return sorted(result)


def image_base(binary):
    """The lowest PT_LOAD address: a DCFG's block offsets count from it."""
    out = readelf(binary, "-l")
    loads = [int(line.split()[2], 16) for line in out.split("\n")
             if line.split()[:1] == ["LOAD"]]
    return min(loads) & ~0xfff if loads else 0


class Image:
    """BINARY's image in a DCFG: its blocks (at ELF addresses), its edges,
    and the ELF function that holds each address."""

    def __init__(self, dcfg_path, binary):
        d = json.load(open_any(dcfg_path))
        files = {f[0]: f[1] for f in d["FILE_NAMES"][1:]}
        types = {t[0]: t[1] for t in d["EDGE_TYPES"][1:]}
        want = os.path.realpath(binary)
        base = image_base(binary)
        self.blocks = {}       # node id -> (address, size, count)
        self.edges = []        # (source id, target id, type, count), every process
        for process in d["PROCESSES"][1:]:
            blocks = {}
            for image in process[1]["IMAGES"][1:]:
                data = image[3]
                if os.path.realpath(files[data["FILE_NAME_ID"]]) != want:
                    continue
                for b in data["BASIC_BLOCKS"][1:]:
                    blocks[b[0]] = (base + int(b[1], 16), b[2], b[5])
            self.blocks.update(blocks)
            for e in process[1]["EDGES"][1:]:
                count = sum(e[4])
                if count and (e[1] in blocks or e[2] in blocks):
                    self.edges.append((e[1], e[2], types[e[3]], count))
        self.functions = [(addr, addr + size, name)
                          for addr, size, name in elf_functions(binary)]

    def function_at(self, addr):
        for start, end, name in self.functions:
            if start <= addr < end:
                return start
        return None


def ran(dcfg_path, binary):
    image = Image(dcfg_path, binary)
    names = {start: name for start, _, name in reversed(image.functions)}
    hit = {image.function_at(a) for a, _, count in image.blocks.values() if count}
    for addr in sorted(hit - {None}):
        print("0x%x %s" % (addr, names[addr]))


CALLS = ("CALL", "DIRECT_CALL", "INDIRECT_CALL")


def broken_flow(image):
    """{function start: (why, times)} for the functions whose control flow leaves
    or enters them outside BOLT's CFG, from the DCFG:
      - a call in it returned fewer times than it was made (an exception
        unwound its frame, longjmp left it, the callee exited);
      - it was entered elsewhere than at its start, not by a return
        (longjmp to a setjmp return site, a landing pad, a jump back from
        its .cold part)."""
    called, returned = {}, {}
    by_start = {addr: node for node, (addr, _, _) in image.blocks.items()}
    for src, dst, kind, count in image.edges:
        if kind in CALLS and src in image.blocks:
            called[src] = called.get(src, 0) + count
        elif kind == "RETURN" and dst in image.blocks:
            returned[dst] = returned.get(dst, 0) + count
    unwound, entered = {}, {}
    for src, count in called.items():
        addr, size, _ = image.blocks[src]
        back = returned.get(by_start.get(addr + size), 0)
        if back < count:
            fn = image.function_at(addr)
            unwound[fn] = unwound.get(fn, 0) + count - back
    for src, dst, kind, count in image.edges:
        if kind == "RETURN" or dst not in image.blocks:
            continue
        fn = image.function_at(image.blocks[dst][0])
        if fn is None or image.blocks[dst][0] == fn:
            continue
        if src not in image.blocks or image.function_at(image.blocks[src][0]) != fn:
            entered[fn] = entered.get(fn, 0) + count
    why = {}
    for fn in set(unwound) | set(entered):
        parts = []
        if fn in unwound:
            parts.append("calls that did not return %d times" % unwound[fn])
        if fn in entered:
            parts.append("entered mid-function %d times" % entered[fn])
        why[fn] = (" and ".join(parts), unwound.get(fn, 0) + entered.get(fn, 0))
    return why


def clean(log_path, pa_path, dcfg_path, binary):
    """What is wrong with BOLT's view of a profile, one line a problem."""
    values, functions = report(log_path), profiled(log_path)
    problems = []
    for key in ("stale", "ignored", "out-of-range"):
        if values[key]:
            problems.append("%s: %d" % (key, values[key]))
    expected = unwalkable(pa_path, log_path, binary)
    if values["mismatching"] != expected:
        problems.append("%d traces mismatching, %d in PLT stubs or non-simple functions"
                        % (values["mismatching"], expected))
    image = Image(dcfg_path, binary)
    names = {start: name for start, _, name in reversed(image.functions)}
    ran = {image.function_at(a) for a, _, count in image.blocks.values() if count} - {None}
    if not ran:
        problems.append("no function ran")
    for start in sorted(ran):
        if start not in functions or not functions[start].exec_count:
            problems.append("ran but has no profile: 0x%x %s" % (start, names[start]))
    # BOLT counts the functions with a profile among those it can optimize
    simple = sum(1 for start in ran if start in functions and functions[start].simple)
    if values["profiled"] != simple:
        problems.append("%d functions profiled, %d simple ones ran" % (values["profiled"], simple))
    for line in problems:
        print(line)
    return 1 if problems else 0


# --- the comparison

class Exclusion:
    """Counts the instrumentation cannot give, for CAUSE: those where its
    count is 0 (it has none), or differs from ours by at most BOUND (it
    inferred it from a flow that was not conserved, BOUND times)."""

    def __init__(self, cause, bound=None):
        self.cause, self.bound = cause, bound

    def covers(self, inst, ours):
        return inst == 0 if self.bound is None else abs(inst - ours) <= self.bound


def exclusions(ours, functions, image):
    """{(function name, what): Exclusion}; what is "exec", "inside" (every
    count but the function's exec) or ("succ", bid)."""
    why = {}
    for fn in functions.values():
        # Instrumentation.cpp instruments isSimple() functions only: the
        # calls into one are counted by its callers, nothing inside it.
        if not fn.simple:
            why[(fn.name, "inside")] = Exclusion(
                "not instrumented: BOLT found unknown control flow in it (IsSimple 0)")
        # BOLT splits `jcc other_function` into jcc + a tail-call block; the
        # jcc loses its input offset and instrumentFunction skips it and the
        # block's fall-through ("FIXME: force fixBranches() to preserve the
        # offset"), so the fall-through count is never written.
        for bid in fn.ctc_blocks:
            why[(fn.name, ("succ", bid))] = Exclusion(
                "fall-through of a conditional tail call: the instrumentation drops it")
    # BOLT makes a function of each PLT stub (NAME@PLT) and of the rest of
    # a PLT section (__BOLT_PSEUDO_.plt) but has no CFG for them and does
    # not instrument them: their calls are counted by the callers alone.
    for name in ours:
        if name.endswith("@PLT") or name.startswith("__BOLT_PSEUDO_.plt"):
            why[(name, "exec")] = why[(name, "inside")] = Exclusion(
                "a PLT stub: not instrumented")
    # BOLT's runtime infers most counts by flow conservation over BOLT's CFG
    # (instr.cpp, computeEdgeFrequencies), and a call's count is its
    # block's: control that leaves or enters a function outside that CFG
    # (a throw, longjmp, landing pad, a .cold part jumping back) makes the
    # inferred counts of the function, and the entry counts of what it
    # calls, wrong by at most the times it happened.
    for start, (cause, times) in broken_flow(image).items():
        fn = functions.get(start)
        if fn is None:
            continue
        text = "%s: flow not conserved in BOLT's CFG (%s)" % (fn.name, cause)
        why[(fn.name, "exec")] = why[(fn.name, "inside")] = Exclusion(text, times)
        for block in ours.get(fn.name, {"blocks": {}})["blocks"].values():
            for _, callee, _ in block["calls"]:
                why.setdefault((callee, "exec"), Exclusion(
                    "called from %s, whose call counts BOLT infers: %s" % (fn.name, text), times))
    return why


def compare(inst_path, ours_path, log_path, dcfg_path, binary):
    inst, ours = read_yaml(inst_path), read_yaml(ours_path)
    name_calls(inst, ours)
    why = exclusions(ours, profiled(log_path), Image(dcfg_path, binary))
    counted = {"functions": 0, "counts": 0, "equal": 0}
    excluded, differ = {}, []

    def check(where, a, b, *keys):
        counted["counts"] += 1
        excuse = next((why[k] for k in keys if k in why and why[k].covers(a, b)), None)
        if a == b:
            counted["equal"] += 1
        elif excuse:
            excluded[excuse.cause] = excluded.get(excuse.cause, 0) + 1
        else:
            differ.append("%s: instrumentation %d, ours %d" % (where, a, b))

    empty_fn, empty = {"exec": 0, "blocks": {}}, {"exec": 0, "succ": {}, "calls": {}}
    for name in sorted(set(inst) | set(ours)):
        counted["functions"] += 1
        fi, fo = inst.get(name, empty_fn), ours.get(name, empty_fn)
        check(name + " exec", fi["exec"], fo["exec"], (name, "exec"))
        inside = (name, "inside")
        for bid in sorted(set(fi["blocks"]) | set(fo["blocks"])):
            bi, bo = fi["blocks"].get(bid, empty), fo["blocks"].get(bid, empty)
            where = "%s bid %d" % (name, bid)
            if bi["exec"] or bo["exec"]:
                check(where + " exec", bi["exec"], bo["exec"], inside,
                      (name, "exec") if bid == 0 else inside)
            for succ in sorted(set(bi["succ"]) | set(bo["succ"])):
                check("%s -> %d" % (where, succ), bi["succ"].get(succ, 0),
                      bo["succ"].get(succ, 0), inside, (name, ("succ", bid)))
            for call in sorted(set(bi["calls"]) | set(bo["calls"])):
                check("%s call +0x%x %s%s" % (where, call[0], call[1],
                                              " disc %d" % call[2] if call[2] else ""),
                      bi["calls"].get(call, 0), bo["calls"].get(call, 0), inside)
    print("functions %d counts %d equal %d excluded %d differ %d" % (
        counted["functions"], counted["counts"], counted["equal"],
        sum(excluded.values()), len(differ)))
    for cause, n in sorted(excluded.items()):
        print("excluded %d: %s" % (n, cause))
    for d in differ:
        print("differs: " + d)
    return 1 if differ else 0


def main(argv):
    if len(argv) == 4 and argv[1] == "ran":
        ran(argv[2], argv[3])
    elif len(argv) == 3 and argv[1] == "profiled":
        for addr, fn in sorted(profiled(argv[2]).items()):
            print("0x%x %d %d %s" % (addr, fn.exec_count, fn.simple, fn.name))
    elif len(argv) == 3 and argv[1] == "report":
        for key, value in report(argv[2]).items():
            print(key, value)
    elif len(argv) == 6 and argv[1] == "clean":
        return clean(*argv[2:])
    elif len(argv) == 5 and argv[1] == "unwalkable":
        print(unwalkable(*argv[2:]))
    elif len(argv) == 7 and argv[1] == "compare":
        return compare(*argv[2:])
    else:
        die("usage: see the comment at the top of " + argv[0])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
