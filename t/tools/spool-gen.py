#!/usr/bin/env python3
"""spool-gen.py DIR [--bad KIND]: a synthetic dcfg-record spool (lib/record/spool.h).

Two threads of a made-up x86-64 program, for t/record-build.bats, whose
expected blocks, edges and counts are worked out by hand there. The code:

  0x401000  5  mov            TB0 = 0x401000..0x40100a (3 insns), cut at 0x401005
  0x401005  3  add            TB1 = 0x401005..0x40100a: the loop
  0x401008  2  jne 0x401005
  0x40100a  5  call 0x401100  TB2
  0x40100f  3  mov            TB4 = 0x40100f..0x401014, cut at 0x401012
  0x401012  2  rep movsb      TB5: each repeat
  0x401014  2  nop            TB6
  0x401016  2  syscall
  0x401018  2  nop            TB7
  0x40101a  5  jmp 0x500000
  0x40101f  2  nop            TB9
  0x401021  2  nop            TB11
  0x401100  1  nop            TB3: the called function
  0x401101  1  ret
  0x401200  1  nop            TB10: a signal handler
  0x401201  2  syscall        (rt_sigreturn)
  0x500000  3  mov            TB8, in a second image
  0x500003  2  jmp *%rax

Thread 0 runs TB 0 1 1 2 3 4 5 5 5 6 7 8 9; thread 1 (100 instructions
before its first recorded block) runs 6, then a signal's handler 10, back
to 7, 8, 9, then the handler again, back to 11.

--bad makes the spool wrong in one way: truncated (thread.0 cut short),
incomplete (no "complete" line), next-past (a NEXT id past the tbs),
absurd-insns (a TB of 60000 instructions), garbled-tbs (tbs cut in a record).
"""
import os
import struct
import sys

TBS = [
    (0x401000, [5, 3, 2], bytes([0x75, 0xfb])),
    (0x401005, [3, 2], bytes([0x75, 0xfb])),
    (0x40100a, [5], bytes([0xe8, 0xf1, 0x00, 0x00, 0x00])),
    (0x401100, [1, 1], bytes([0xc3])),
    (0x40100f, [3, 2], bytes([0xf3, 0xa4])),
    (0x401012, [2], bytes([0xf3, 0xa4])),
    (0x401014, [2, 2], bytes([0x0f, 0x05])),
    (0x401018, [2, 5], bytes([0xe9, 0xe1, 0xef, 0x0f, 0x00])),
    (0x500000, [3, 2], bytes([0xff, 0xe0])),
    (0x40101f, [2], bytes([0x66, 0x90])),
    (0x401200, [1, 2], bytes([0x0f, 0x05])),
    (0x401021, [2], bytes([0x66, 0x90])),
]

THREADS = [
    (0, [0, 1, 1, 2, 3, 4, 5, 5, 5, 6, 7, 8, 9]),
    (100, [6, 10, 7, 8, 9, 10, 11]),
]


def leb(n):
    out = bytearray()
    while True:
        b = n & 0x7f
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def thread_records(seq):
    """(HITS, NEXT) records with the predictor spool.h describes."""
    out = bytearray()
    follows = {}
    prev = None
    hits = 0
    for tb in seq:
        if prev is not None and follows.get(prev) == tb:
            hits += 1
        else:
            out += leb(hits) + leb(tb + 1)
            hits = 0
            if prev is not None:
                follows[prev] = tb
        prev = tb
    out += leb(hits) + leb(0)
    return bytes(out)


def main():
    d = sys.argv[1]
    bad = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == '--bad' else None
    os.makedirs(d, exist_ok=True)
    tbs = bytearray()
    for i, (pc, lens, last) in enumerate(TBS):
        n = 60000 if bad == 'absurd-insns' and i == 3 else len(lens)
        tbs += struct.pack('=QIHBB', pc, i, n, len(last), 0) + bytes(lens) + last
    if bad == 'garbled-tbs':
        tbs = tbs[:-3]
    with open(os.path.join(d, 'tbs'), 'wb') as f:
        f.write(tbs)
    for t, (preceding, seq) in enumerate(THREADS):
        data = b'DCFGTHR1' + struct.pack('=Q', preceding) + thread_records(seq)
        if t == 0 and bad == 'truncated':
            data = data[:-3]
        if t == 1 and bad == 'next-past':
            data = data[:-2] + leb(0) + leb(len(TBS) + 1) + leb(0) + leb(0)
        with open(os.path.join(d, 'thread.%d' % t), 'wb') as f:
            f.write(data)
    with open(os.path.join(d, 'images'), 'w') as f:
        f.write('image 0x500000 0x1000 /nonexistent/libfake.so\n')
        f.write('image 0x400000 0x2000 /nonexistent/prog\n')
    with open(os.path.join(d, 'process'), 'w') as f:
        f.write('pid 4242\narch x86_64\nthreads 2\nstatus 0\n')
        if bad != 'incomplete':
            f.write('complete\n')


main()
