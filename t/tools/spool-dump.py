#!/usr/bin/env python3
"""Decodes a dcfg-record spool (lib/record/spool.h), written by the QEMU
plugin, independently of the recorder's own reader: for the plugin's tests.

    spool-dump.py [--sequence | --total-instructions | --block-counts |
                   --range-instructions LO HI | --summary] SPOOLDIR

--summary (the default): the process file, the images, the block count,
    and per thread its preceding instructions, blocks and instructions.
--sequence: each thread's blocks in order, "thread N" then one "0xPC NINSNS"
    line per block run.
--total-instructions: "N COUNT" per thread, COUNT the instructions of its
    recorded blocks plus those it ran before them.
--block-counts: "0xPC NINSNS COUNT" per distinct block that ran, over all
    threads, sorted by pc.
--range-instructions LO HI: the instructions run at addresses in [LO, HI)
    (hexadecimal), over all threads: e.g. one function's, from nm -S.

Exit 1 with "spool-dump: FILE: what is wrong" when the spool is not whole.
"""
import os
import struct
import sys

TB_HEAD = struct.Struct("=QIHBB")      # pc, id, n_insns, last_len, flags
THREAD_HEAD = struct.Struct("=8sQ")    # magic, preceding_instrs
MAGIC = b"DCFGTHR1"


class SpoolError(Exception):
    pass


def read_tbs(path):
    data = open(path, "rb").read()
    blocks, at = [], 0
    while at < len(data):
        if at + TB_HEAD.size > len(data):
            raise SpoolError(f"{path}: record cut short at byte {at}")
        pc, ident, n_insns, last_len, flags = TB_HEAD.unpack_from(data, at)
        at += TB_HEAD.size
        if ident != len(blocks):
            raise SpoolError(f"{path}: record {len(blocks)} has id {ident}")
        if flags != 0 or n_insns == 0 or last_len == 0:
            raise SpoolError(f"{path}: record {ident} is malformed")
        lengths = data[at:at + n_insns]
        last = data[at + n_insns:at + n_insns + last_len]
        at += n_insns + last_len
        if len(last) != last_len:
            raise SpoolError(f"{path}: record {ident} cut short")
        if lengths[-1] != last_len:
            raise SpoolError(f"{path}: record {ident}: last length {lengths[-1]} != {last_len}")
        blocks.append((pc, n_insns, bytes(lengths), last))
    return blocks


def leb128(data, at, path):
    value, shift = 0, 0
    while True:
        if at >= len(data):
            raise SpoolError(f"{path}: number cut short at byte {at}")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at
        if shift > 63:
            raise SpoolError(f"{path}: number too long at byte {at}")


def read_thread(path, n_blocks):
    """Yields the thread's block ids in order; returns preceding via .preceding."""
    data = open(path, "rb").read()
    if len(data) < THREAD_HEAD.size:
        raise SpoolError(f"{path}: no header")
    magic, preceding = THREAD_HEAD.unpack_from(data, 0)
    if magic != MAGIC:
        raise SpoolError(f"{path}: bad magic {magic!r}")
    follows = {}
    ids = []
    at, prev, ended = THREAD_HEAD.size, None, False
    while at < len(data):
        hits, at = leb128(data, at, path)
        nxt, at = leb128(data, at, path)
        for _ in range(hits):
            if prev is None or prev not in follows:
                raise SpoolError(f"{path}: a predicted block with no prediction")
            prev = follows[prev]
            ids.append(prev)
        if nxt == 0:
            ended = True
            break
        ident = nxt - 1
        if ident >= n_blocks:
            raise SpoolError(f"{path}: block {ident} is not in tbs ({n_blocks} blocks)")
        if prev is not None:
            follows[prev] = ident
        elif hits:
            raise SpoolError(f"{path}: hits before the first block")
        prev = ident
        ids.append(ident)
    if not ended:
        raise SpoolError(f"{path}: no end record (cut short)")
    if at != len(data):
        raise SpoolError(f"{path}: {len(data) - at} bytes after the end record")
    return preceding, ids


def read_lines(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return f.read().split("\n")[:-1]


def read_process(path):
    lines = read_lines(path)
    if not lines or lines[-1] != "complete":
        raise SpoolError(f"{path}: not complete")
    info = {}
    for line in lines[:-1]:
        key, _, value = line.partition(" ")
        info[key] = value
    for key in ("pid", "arch", "threads"):
        if key not in info:
            raise SpoolError(f"{path}: no {key}")
    return info


def read_images(path):
    images = []
    for number, line in enumerate(read_lines(path), 1):
        parts = line.split(" ", 3)
        if len(parts) != 4 or parts[0] != "image":
            raise SpoolError(f"{path}:{number}: not 'image LOAD SIZE PATH'")
        images.append((int(parts[1], 16), int(parts[2], 16), parts[3]))
    return images


def main(argv):
    modes = {"--summary", "--sequence", "--total-instructions", "--block-counts"}
    mode = "--summary"
    args = []
    rest = iter(argv[1:])
    for arg in rest:
        if arg in modes:
            mode = arg
        elif arg == "--range-instructions":
            mode = arg
            try:
                low, high = int(next(rest), 16), int(next(rest), 16)
            except (StopIteration, ValueError):
                sys.exit("spool-dump: --range-instructions takes LO HI, in hexadecimal")
        elif arg.startswith("-"):
            sys.exit(f"spool-dump: unknown option {arg}\n{__doc__}")
        else:
            args.append(arg)
    if len(args) != 1:
        sys.exit(__doc__)
    spool = args[0]
    try:
        process = read_process(os.path.join(spool, "process"))
        blocks = read_tbs(os.path.join(spool, "tbs"))
        images = read_images(os.path.join(spool, "images"))
        threads = []
        for number in range(int(process["threads"])):
            threads.append(read_thread(os.path.join(spool, f"thread.{number}"), len(blocks)))
        extra = os.path.join(spool, f"thread.{len(threads)}")
        if os.path.exists(extra):
            raise SpoolError(f"{extra}: more thread files than threads")
    except (OSError, SpoolError, ValueError) as e:
        print(f"spool-dump: {e}", file=sys.stderr)
        return 1

    if mode == "--range-instructions":
        counts = [0] * len(blocks)
        for _, ids in threads:
            for i in ids:
                counts[i] += 1
        total = 0
        for i, count in enumerate(counts):
            if count:
                address = blocks[i][0]
                for length in blocks[i][2]:
                    if low <= address < high:
                        total += count
                    address += length
        print(total)
    elif mode == "--total-instructions":
        for number, (preceding, ids) in enumerate(threads):
            print(number, preceding + sum(blocks[i][1] for i in ids))
    elif mode == "--sequence":
        for number, (_, ids) in enumerate(threads):
            print(f"thread {number}")
            for i in ids:
                print(f"0x{blocks[i][0]:x} {blocks[i][1]}")
    elif mode == "--block-counts":
        counts = [0] * len(blocks)
        for _, ids in threads:
            for i in ids:
                counts[i] += 1
        for i in sorted(range(len(blocks)), key=lambda i: (blocks[i][0], blocks[i][1], i)):
            if counts[i]:
                print(f"0x{blocks[i][0]:x} {blocks[i][1]} {counts[i]}")
    else:
        for key, value in process.items():
            print(f"{key} {value}")
        for load, size, path in images:
            print(f"image 0x{load:x} 0x{size:x} {path}")
        print(f"blocks {len(blocks)}")
        for number, (preceding, ids) in enumerate(threads):
            instrs = sum(blocks[i][1] for i in ids)
            print(f"thread {number} preceding {preceding} blocks {len(ids)} instructions {instrs}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
