#!/usr/bin/env python3
"""The second method of t/regions-check.bats: dcfg-regions(1) CHECK's
figures computed from their definitions, in exact fractions, and compared
with what dcfg-regions --check -f json wrote.

usage: regions_check_model.py CHECK.json PROFILE T.SIMPOINTS T.WEIGHTS [T.LABELS]

From the profile it reads only the T lines (each slice's vector), the
Block id lines (a block's first address) and the G: lines (images). The
multiplier is the spec's (simulation-regions.md): with labels, the
cluster's instructions over the whole run's times the slices; without,
the weight times the slices. Every figure must be within 1e-6 of the
exact one (the six decimals written), every count exact, and the rows in
the order of instructions, most first, then by block. Exit 0, or 1 with
each difference on stderr.
"""
import json
import sys
from fractions import Fraction


def unescape(word):
    """A name as dcfg-stream(5) escapes it, as bytes."""
    out, i, b = bytearray(), 0, word.encode('utf-8', 'surrogateescape')
    while i < len(b):
        if b[i:i + 1] == b'\\' and i + 1 < len(b) and b[i + 1:i + 2] in (b'\\', b't', b'n', b'r'):
            out += {b'\\': b'\\', b't': b'\t', b'n': b'\n', b'r': b'\r'}[b[i + 1:i + 2]]
            i += 2
        elif b[i:i + 2] == b'\\x' and i + 3 < len(b) and all(
                chr(c) in '0123456789abcdefABCDEF' for c in b[i + 2:i + 4]) and int(b[i + 2:i + 4], 16):
            out.append(int(b[i + 2:i + 4], 16))
            i += 4
        else:
            out.append(b[i])
            i += 1
    return bytes(out)


def escape(name):
    """The form the table writer gives a name: printable ASCII and UTF-8 (no C1 control) kept."""
    out, i = [], 0
    while i < len(name):
        c = name[i]
        if 0x20 <= c < 0x7f and c != 0x5c:
            out.append(chr(c))
            i += 1
            continue
        for n in (4, 3, 2):
            try:
                ch = name[i:i + n].decode('utf-8')
            except UnicodeDecodeError:
                continue
            if len(ch) == 1 and not (0x80 <= ord(ch) <= 0x9f):
                out.append(ch)
                i += n
                break
        else:
            out.append({0x5c: '\\\\', 9: '\\t', 10: '\\n', 13: '\\r'}.get(c, '\\x%02x' % c))
            i += 1
    return ''.join(out)


def read_profile(path):
    slices, blocks, images = [], {}, []
    with open(path) as f:
        for line in f:
            if line.startswith('T'):
                vec = {}
                parts = line[1:].replace(' ', '').replace('\t', '').strip().split(':')[1:]
                for i in range(0, len(parts), 2):
                    vec[int(parts[i])] = vec.get(int(parts[i]), 0) + int(parts[i + 1])
                slices.append(vec)
            elif line.startswith('Block id:'):
                w = line.split()
                blocks[int(w[2])] = int(w[3].split(':')[0], 16)
            elif line.startswith('G:'):
                w = line.split()
                low = int(w[w.index('LowAddress:') + 1], 16)
                name = unescape(' '.join(w[1:w.index('LowAddress:')]))
                images.append((low, escape(name.rsplit(b'/', 1)[-1] or name)))
    return slices, blocks, sorted(images)


def pairs(path, first_int):
    out = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if w:
                out.append((int(w[0]) if first_int else Fraction(w[0]), int(w[1])))
    return out


def main():
    got = json.load(open(sys.argv[1]))
    slices, blocks, images = read_profile(sys.argv[2])
    chosen = dict((c, s) for s, c in pairs(sys.argv[3], True))
    weights = dict((c, w) for w, c in pairs(sys.argv[4], False))
    labels = [int(line.split()[0]) for line in open(sys.argv[5]) if line.split()] \
        if len(sys.argv) > 5 else None
    n = len(slices)
    sums = [sum(v.values()) for v in slices]
    total = sum(sums)
    run = {}
    for v in slices:
        for b, x in v.items():
            run[b] = run.get(b, 0) + x
    projected = dict((b, Fraction(0)) for b in run)
    for c, s in chosen.items():
        if labels is not None:
            mult = Fraction(sum(sums[i] for i in range(n) if labels[i] == c), total) * n
        else:
            mult = weights[c] * n
        for b, x in slices[s].items():
            projected[b] += mult * x
    ptotal = sum(projected.values())
    error = dict((b, projected[b] / ptotal - Fraction(run[b], total)) for b in run)
    distance = sum(abs(e) for e in error.values())
    bad = []

    def near(what, want, have):
        if abs(Fraction(have) - want) > Fraction(1, 10**6):
            bad.append('%s: %s, the model says %.9f' % (what, have, float(want)))

    table = got['tables'][0]
    near('bbv_distance', distance, table['bbv_distance'])
    near('block_share_error_max', max(abs(e) for e in error.values()), table['block_share_error_max'])
    near('instruction_count_error', (ptotal - total) / total, table['instruction_count_error'])
    if abs(Fraction(table['projected_instructions']) - ptotal) > Fraction(1, 10):
        bad.append('projected_instructions %s, not %.3f' % (table['projected_instructions'], float(ptotal)))
    if table['instructions'] != total or got['slices'] != n or got['regions'] != len(chosen):
        bad.append('instructions, slices or regions differ')
    order = sorted(run, key=lambda b: (-run[b], b))
    rows = table['rows']
    if [r['block'] for r in rows] != order:
        bad.append('rows in the order %s, not %s' % ([r['block'] for r in rows][:10], order[:10]))
    for r in rows:
        b = r['block']
        if b not in run:
            continue
        where = 'block %d' % b
        if r['instructions'] != run[b]:
            bad.append('%s: %s instructions, not %d' % (where, r['instructions'], run[b]))
        near(where + ' true_share', Fraction(run[b], total), r['true_share'])
        near(where + ' projected_share', projected[b] / ptotal, r['projected_share'])
        near(where + ' share_error', error[b], r['share_error'])
        addr = blocks.get(b)
        im = [i for i in images if addr is not None and i[0] <= addr]
        want = ('0x%x' % addr if addr is not None else '-', im[-1][1] if im else '-',
                '0x%x' % (addr - im[-1][0]) if im else '-')
        if (r['address'], r['image'], r['offset']) != want:
            bad.append('%s: at %s %s %s, not %s %s %s' % ((where, r['address'], r['image'], r['offset']) + want))
    for line in bad[:20]:
        print('regions_check_model: ' + line, file=sys.stderr)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
