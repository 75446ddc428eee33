"""Tries to change a loaded DCFG's tables (a block's address, a node id of
node_ids), then writes what the library's lookups answer for the values
from before, and whether each change was refused.  Usage: readonly.py DCFG"""

import sys

import dcfg

d = dcfg.load(sys.argv[1])
p = d.processes[0]
pid = int(p["pid"]) if dcfg.HAVE_NUMPY else p.pid
b = d.blocks[5]
addr, node = (int(b["addr"]), int(b["node_id"])) if dcfg.HAVE_NUMPY else (b.addr, b.node_id)
try:
    if dcfg.HAVE_NUMPY:
        d.blocks["addr"][5] = 0
        d.blocks["node_id"][5] = 0
    else:
        d.blocks[5].addr = 0
    print("blocks changed")
except (ValueError, AttributeError):
    print("blocks refused")
print("block_at", d.block_at(pid, addr), "block", d.block(pid, node))
