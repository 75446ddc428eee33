#!/usr/bin/env python3
"""Reads a region CSV of dcfg-regions(1) the way each public reader does,
written from the readers' documented behaviour (simulation-regions.md,
Readers), and fails (exit 1, a line saying why) where one would:

- LoopPoint's run-looppoint.py: each line that is not a comment split on
  commas; fields 2 (region id), 4-6 (start image, offset, count), 8-10
  (end image, offset, count) and 14 (multiplier) are used;
- gem5's LooppointCsvLoader: each line split on spaces; a "cluster" row
  has the data in its fifth word, split on commas: pc and count from 3/6
  and 7/10 (hex and decimal integers), relative count 11 (an integer),
  multiplier 14 (a float); a "Warmup" row has it in its fourth word, the
  region id first, and must name a simulation region;
- split.pc-csvfile.py: each data line comes after "# RegionId =",
  "#Start: pc" and "#End: pc" comment lines;
- SDE's -pcregions:in: every data line has 16 fields, weight <= 1.

Prints one line per data line: the reader's view of it, for the test to
compare with what it expects."""
import sys

def fail(msg):
    print("regions-readers: " + msg)
    sys.exit(1)

lines = open(sys.argv[1], encoding="utf-8", errors="surrogateescape").read().split("\n")
sim = {}
warm = []
comments = []
for n, line in enumerate(lines, 1):
    if line == "":
        continue
    if line.startswith("#"):
        comments.append(line)
        continue
    # SDE: 16 comma-separated fields, weight <= 1
    f = line.split(",")
    if len(f) != 16:
        fail("line %d: %d fields, not 16" % (n, len(f)))
    if not 0 <= float(f[13]) <= 1:
        fail("line %d: weight %s" % (n, f[13]))
    # split.pc-csvfile.py: the three comment lines before it
    if len(comments) < 3 or not comments[-3].startswith("# RegionId =") or \
            not comments[-2].startswith("#Start: pc") or not comments[-1].startswith("#End: pc"):
        fail("line %d: not after # RegionId =, #Start: pc, #End: pc" % n)
    comments = []
    # run-looppoint.py: fields 2, 4-6, 8-10, 14
    rid = int(f[2])
    looppoint = (rid, f[4], int(f[5], 16), int(f[6]), f[8], int(f[9], 16), int(f[10]), float(f[14]))
    # gem5: split on spaces
    row = line.split(" ")
    if row[0] == "cluster":
        if len(row) != 5:
            fail("line %d: gem5 sees %d words, not 5" % (n, len(row)))
        g = row[4].split(",")
        gem5 = (int(g[2]), int(g[3], 16), int(g[6]), int(g[7], 16), int(g[10]), int(g[11]), float(g[14]))
        sim[gem5[0]] = gem5
        print("simulation", *looppoint, "gem5", *gem5)
    elif row[0] == "Warmup":
        if len(row) != 4 or row[1:3] != ["for", "regionid"]:
            fail("line %d: gem5 cannot read this warmup row" % n)
        g = row[3].split(",")
        gem5 = (int(g[0]), int(g[3], 16), int(g[6]), int(g[7], 16), int(g[10]))
        warm.append(gem5)
        print("warmup", *looppoint, "gem5", *gem5)
    else:
        fail("line %d: neither a cluster nor a Warmup row" % n)
for w in warm:
    if w[0] not in sim:
        fail("warmup of region %d, which is not a simulation region" % w[0])
