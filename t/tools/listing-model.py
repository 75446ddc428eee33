#!/usr/bin/env python3
"""A second reading of a DCFG, from its JSON alone (standard library only),
for the tests of dcfg-info --list and of "did you mean" (t/info-list.bats,
t/suggest.bats).

  listing-model.py DCFG routines|images|loops
      one line per routine, image or loop of every process, tab-separated:
        routines: pid entry-node image-id executions instructions
        images:   pid image-id executions instructions
        loops:    pid head-node routine-entry depth static entries iterations instructions
      executions of a block: the summed counts of the edges into it;
      a routine's executions: the edges into its entry from outside it;
      its instructions: its blocks' executions x NUM_INSTRS; an image's
      executions and instructions: its blocks'; a loop's entries: edges into
      its head from outside its nodes, iterations: from its back-edge
      sources, instructions: its nodes' blocks', depth: 1 + the loops of
      other heads whose nodes hold its head (when the head is a block).
  listing-model.py DCFG suggest NAME
      the names dcfg-convert --routine offers for NAME (dcfg-convert(1)), one
      a line: routine names are the symbol at the entry (SYMBOL+0xOFF inside
      one), NAME@IMAGE-BASE-NAME when images share the symbol's name.
"""
import json
import os
import sys


def table(rows):
    if not rows:
        return []
    head = rows[0]
    return [dict(zip(head, r)) for r in rows[1:]]


def num(v):
    return int(v, 16) if isinstance(v, str) else v


def processes(d):
    files = {r["FILE_NAME_ID"]: r["FILE_NAME"] for r in table(d.get("FILE_NAMES", []))}
    for pr in table(d["PROCESSES"]):
        pd = pr["PROCESS_DATA"]
        p = {"pid": pr["PROCESS_ID"], "images": [], "blocks": {}, "routines": [], "loops": []}
        for im in table(pd.get("IMAGES", [])):
            data = im["IMAGE_DATA"]
            fid = data.get("FILE_NAME_ID")
            img = {"id": im["IMAGE_ID"], "file": files.get(fid), "symbols": []}
            p["images"].append(img)
            for s in table(data.get("SYMBOLS", [])):
                img["symbols"].append((num(s["ADDR_OFFSET"]), s.get("SIZE", 0), s["NAME"]))
            for b in table(data.get("BASIC_BLOCKS", [])):
                p["blocks"][b["NODE_ID"]] = {"image": img, "off": num(b["ADDR_OFFSET"]),
                                             "instrs": b["NUM_INSTRS"], "routine": None, "exec": 0}
            for r in table(data.get("ROUTINES", [])):
                rt = {"entry": r["ENTRY_NODE_ID"], "image": img,
                      "nodes": [n["NODE_ID"] for n in table(r.get("NODES", []))]}
                p["routines"].append(rt)
                for lp in table(r.get("LOOPS", [])):
                    p["loops"].append({"head": lp["LOOP_HEAD_NODE_ID"], "routine": rt,
                                       "back": lp["LOOP_BACK_EDGE_SOURCE_NODE_IDS"],
                                       "nodes": lp["LOOP_NODE_IDS"]})
        for rt in p["routines"]:
            for n in rt["nodes"]:
                if n in p["blocks"]:
                    p["blocks"][n]["routine"] = rt
        p["edges"] = [(e["SOURCE_NODE_ID"], e["TARGET_NODE_ID"], sum(e.get("COUNT_PER_THREAD", [])))
                      for e in table(pd.get("EDGES", []))]
        for s, t, c in p["edges"]:
            if t in p["blocks"]:
                p["blocks"][t]["exec"] += c
        yield p


def routines(p):
    for rt in p["routines"]:
        ex = sum(c for s, t, c in p["edges"] if t == rt["entry"] and
                 (s not in p["blocks"] or p["blocks"][s]["routine"] is not rt))
        ins = sum(b["exec"] * b["instrs"] for b in p["blocks"].values() if b["routine"] is rt)
        print(p["pid"], rt["entry"], rt["image"]["id"], ex, ins, sep="\t")


def images(p):
    for img in p["images"]:
        bs = [b for b in p["blocks"].values() if b["image"] is img]
        print(p["pid"], img["id"], sum(b["exec"] for b in bs),
              sum(b["exec"] * b["instrs"] for b in bs), sep="\t")


def loops(p):
    for lp in p["loops"]:
        nodes = set(lp["nodes"])
        depth = 1 + (sum(1 for o in p["loops"] if o["head"] != lp["head"] and lp["head"] in o["nodes"])
                     if lp["head"] in p["blocks"] else 0)
        static = sum(p["blocks"][n]["instrs"] for n in nodes if n in p["blocks"])
        entries = sum(c for s, t, c in p["edges"] if t == lp["head"] and s not in nodes)
        iters = sum(c for s, t, c in p["edges"] if t == lp["head"] and s in lp["back"])
        ins = sum(p["blocks"][n]["exec"] * p["blocks"][n]["instrs"] for n in nodes if n in p["blocks"])
        print(p["pid"], lp["head"], lp["routine"]["entry"], depth, static, entries, iters, ins,
              sep="\t")


def symbol_name(img, off):
    best = None
    for so, size, name in img["symbols"]:
        if so <= off and (off < so + size or so == off) and (best is None or so > best[0]):
            best = (so, name)
    return best


def osa(a, b):
    prev2, prev = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j - 1] + (a[i - 1] != b[j - 1]), prev[j] + 1, cur[j - 1] + 1)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


def suggest(p, query):
    owners = {}
    for img in p["images"]:
        for _, _, name in img["symbols"]:
            owners.setdefault(name, set()).add(img["id"])
    names = []
    for rt in p["routines"]:
        b = p["blocks"][rt["entry"]]
        s = symbol_name(b["image"], b["off"])
        if s is None:
            continue   # IMAGE+0xOFF: none in the files the tests ask about
        name = s[1] if s[0] == b["off"] else "%s+0x%x" % (s[1], b["off"] - s[0])
        if len(owners.get(s[1], ())) > 1:
            name += "@" + os.path.basename(b["image"]["file"])
        names.append(name)
    fold = lambda s: s.lower()
    limit = max(1, len(query) // 3)
    scored = []
    for name in sorted(set(names)):
        best = None
        forms = [name] + ([name[:name.rindex("@")]] if "@" in name[1:] else [])
        for form in forms:
            f = osa(fold(query), fold(form))
            if f <= limit or (len(query) >= 3 and fold(query) in fold(form)):
                key = (f, osa(query, form))
                best = key if best is None or key < best else best
        if best is not None:
            scored.append((best, name))
    for _, name in sorted(scored)[:3]:
        print(name)


def main():
    d = json.load(open(sys.argv[1]))
    for p in processes(d):
        if sys.argv[2] == "suggest":
            suggest(p, sys.argv[3])
        else:
            {"routines": routines, "images": images, "loops": loops}[sys.argv[2]](p)


main()
