#!/usr/bin/env python3
"""The second method for dcfg-convert's folded stubs (dcfg-convert(1)
STUBS): the DCFG read by Python's json module, the rule of the man page
applied by iterating to a fixed point, and a call graph without a trace
costed as gprof does for graphs without cycles. Nothing here comes from
the C code.

usage: stubs-model.py DCFG PID stubs      the folded stubs: "STUB_ENTRY TARGET_ENTRY"
       stubs-model.py DCFG PID graph [--keep-stubs]
                                          per function that ran, by entry node:
                                          "ENTRY SELF INCLUSIVE"; then "total N"
       stubs-model.py DCFG PID main-image the main image's file name
"""
import json
import sys

CALLS = {"CALL", "DIRECT_CALL", "INDIRECT_CALL", "SYSTEM_CALL", "CONTEXT_CHANGE"}
RETURNS = {"RETURN", "SYSTEM_RETURN"}


def table(rows):
    head = rows[0]
    return [dict(zip(head, r)) for r in rows[1:]]


def load(path, pid):
    d = json.load(open(path))
    kinds = {r["EDGE_TYPE_ID"]: r["EDGE_TYPE"] for r in table(d["EDGE_TYPES"])}
    names = {r["FILE_NAME_ID"]: r["FILE_NAME"] for r in table(d["FILE_NAMES"])}
    for p in table(d["PROCESSES"]):
        if p["PROCESS_ID"] == pid:
            return p["PROCESS_DATA"], kinds, names
    sys.exit("no process %d" % pid)


def model(data, kinds):
    instrs, func = {}, {}
    entry_of = {}
    for im in table(data["IMAGES"]):
        imd = im["IMAGE_DATA"]
        for b in table(imd.get("BASIC_BLOCKS", [["NODE_ID"]])):
            instrs[b["NODE_ID"]] = b["NUM_INSTRS"]
        for r in imd.get("ROUTINES", [[]])[1:]:
            for n in r[2][1:]:
                func[n[0]] = r[0]
    for b in instrs:
        func.setdefault(b, b)          # a block in no routine: a function of its own
    edges = []
    for e in table(data["EDGES"]):
        kind = kinds[e["EDGE_TYPE_ID"]]
        role = "call" if kind in CALLS else "ret" if kind in RETURNS else None
        edges.append((e["EDGE_ID"], e["SOURCE_NODE_ID"], e["TARGET_NODE_ID"], role,
                      sum(e["COUNT_PER_THREAD"])))
    return instrs, func, edges


def find_stubs(instrs, func, edges):
    """STUB -> its chain's last function (entries are function ids = entry nodes)."""
    funcs = set(func.values())
    target, bad = {}, set()
    for _, s, t, role, _ in edges:
        if s not in instrs:
            continue
        fs = func[s]
        if role is not None or t not in instrs:
            bad.add(fs)
            continue
        ft = func[t]
        if ft == fs:
            continue
        if t != ft or target.get(fs, ft) != ft:
            bad.add(fs)
        target.setdefault(fs, ft)
    stub = {f for f in funcs if f in target and f not in bad}
    changed = True
    while changed:                     # entered only by calls and by stubs' jumps
        changed = False
        for _, s, t, role, _ in edges:
            if t not in instrs or func[t] not in stub:
                continue
            fs = func.get(s)
            if fs == func[t] or (fs is not None and role == "call"):
                continue
            if fs is None or role is not None or fs not in stub:
                stub.discard(func[t])
                changed = True
    fold = {}
    for f in stub:
        seen, g = [f], target[f]
        while g in stub and g not in seen:
            seen.append(g)
            g = target[g]
        if g not in stub:
            fold[f] = g
    return fold


def graph(instrs, func, edges, keep):
    fold = {} if keep else find_stubs(instrs, func, edges)
    exec_ = {}
    for _, s, t, role, c in edges:
        if t in instrs:
            exec_[t] = exec_.get(t, 0) + c
    own = {}
    for b, n in instrs.items():
        own[func[b]] = own.get(func[b], 0) + exec_.get(b, 0) * n
    total = sum(own.values())
    self_ = {f: (0 if f in fold else v) for f, v in own.items()}
    # a stub's instructions go back to the edges entering it, by count,
    # nearest the chain's end first (the last share takes the rounding)
    def chain_depth(f):
        n = 0
        while f in fold:
            n += 1
            f = next(func[t] for _, s, t, role, _ in edges
                     if s in instrs and func[s] == f and t in instrs and func[t] != f)
        return n
    depth = {f: chain_depth(f) for f in fold}
    pool = {f: own[f] for f in fold}
    site = {}
    left = {}
    for f in sorted(fold, key=lambda f: (depth[f], f)):
        ins = [(i, s, role, c) for i, s, t, role, c in edges
               if t in instrs and func[t] == f and s in instrs and func[s] != f]
        n = sum(c for _, _, _, c in ins)
        if n == 0:
            left[f] = pool[f]
            continue
        cum = before = 0
        for i, s, role, c in ins:
            cum += c
            now = pool[f] * cum // n
            if role == "call":
                self_[func[s]] += now - before
                site[i] = now - before
            else:
                pool[func[s]] += now - before
            before = now
    for f, v in left.items():
        self_[f] = v
    calls = {}                          # callee -> [(caller, count)]
    for i, s, t, role, c in edges:
        if role == "call" and c and s in instrs and t in instrs:
            callee = fold.get(func[t], func[t])
            calls.setdefault(callee, []).append((func[s], c))
    incl = {}

    def inclusive(f, path=()):
        """self, and each call's share of its callee's inclusive, by count"""
        if f in incl:
            return incl[f]
        assert f not in path, "a cycle of calls: not modelled"
        v = self_.get(f, 0)
        for callee, ins in calls.items():
            if callee == f or all(caller != f for caller, _ in ins):
                continue
            whole, n = inclusive(callee, path + (f,)), sum(c for _, c in ins)
            cum = before = 0
            for caller, c in ins:
                cum += c
                now = whole * cum // n
                if caller == f:
                    v += now - before
                before = now
        incl[f] = v
        return v
    ran = [f for f in sorted(own) if (own[f] and f not in fold) or left.get(f)]
    return [(f, self_[f], inclusive(f)) for f in ran], total


def main():
    path, pid, what = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    data, kinds, names = load(path, pid)
    if what == "main-image":
        ims = [(im["IMAGE_ID"], names[im["IMAGE_DATA"]["FILE_NAME_ID"]])
               for im in table(data["IMAGES"]) if im["IMAGE_DATA"].get("FILE_NAME_ID") in names]
        if ims:
            print(min(ims)[1])
        return
    instrs, func, edges = model(data, kinds)
    if what == "stubs":
        for f, t in sorted(find_stubs(instrs, func, edges).items()):
            print(f, t)
        return
    rows, total = graph(instrs, func, edges, "--keep-stubs" in sys.argv[4:])
    for f, s, i in rows:
        print(f, s, i)
    print("total", total)


main()
