#!/usr/bin/env python3
"""The second method of t/regions-check.bats: dcfg-regions(1) CHECK's
figures computed from their definitions, in exact fractions, and compared
with what dcfg-regions --check -f json wrote.

usage: regions_check_model.py [--dcfg DCFG] CHECK.json PROFILE T.SIMPOINTS T.WEIGHTS [T.LABELS]

From the profile it reads only the T lines (each slice's vector), the
Block id lines (a block's first address) and the G: lines (images). The
multiplier is the spec's (simulation-regions.md): with labels, the
cluster's instructions over the whole run's times the slices; without,
the weight times the slices. Every figure must be within 1e-6 of the
exact one (the six decimals written), every count exact, and the rows in
the order of instructions, most first, then by block. With --dcfg, the
routines' table too: a block is the DCFG's block at its Block id line's
address in the profile's process (its first line's process=), its routine
the one whose NODES list that block; the code of no routine is the row
"-". Exit 0, or 1 with each difference on stderr.
"""
import gzip
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


def num(v):
    return int(v, 16) if isinstance(v, str) else int(v)


def routine_of_blocks(dcfg_path, profile_path):
    """Address -> the entry node of its block's routine (None: no routine), in the profile's process."""
    pid = int(open(profile_path).readline().split('process=')[1].split()[0])
    opener = gzip.open if dcfg_path.endswith('.gz') else open
    d = json.load(opener(dcfg_path, 'rt'))
    for row in d['PROCESSES'][1:]:
        if row[0] != pid:
            continue
        at, routine = {}, {}
        for im in row[1]['IMAGES'][1:]:
            load, data = num(im[1]), im[3]
            for r in data.get('ROUTINES', [])[1:]:
                for node in r[2][1:]:
                    routine[node[0]] = r[0]
            for b in data.get('BASIC_BLOCKS', [])[1:]:
                at[load + num(b[1])] = b[0]
        return dict((a, routine.get(n)) for a, n in at.items())
    raise SystemExit('regions_check_model: no process %d in %s' % (pid, dcfg_path))


def pairs(path, first_int):
    out = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if w:
                out.append((int(w[0]) if first_int else Fraction(w[0]), int(w[1])))
    return out


def main():
    dcfg = None
    if sys.argv[1] == '--dcfg':
        dcfg = sys.argv[2]
        del sys.argv[1:3]
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
    if dcfg is not None:
        routines(got, dcfg, sys.argv[2], run, projected, total, ptotal, blocks, bad, near)
    elif len(got['tables']) != 1:
        bad.append('%d tables without --dcfg' % len(got['tables']))
    for line in bad[:20]:
        print('regions_check_model: ' + line, file=sys.stderr)
    return 1 if bad else 0


def routines(got, dcfg, profile, run, projected, total, ptotal, blocks, bad, near):
    routine = routine_of_blocks(dcfg, profile)
    rrun, rproj = {}, {}
    for b in run:
        r = routine[blocks[b]]
        r = '-' if r is None else r
        rrun[r] = rrun.get(r, 0) + run[b]
        rproj[r] = rproj.get(r, 0) + projected[b]
    error = dict((r, rproj[r] / ptotal - Fraction(rrun[r], total)) for r in rrun)
    table = got['tables'][1]
    if table['table'] != 'routines':
        bad.append('the second table is not the routines\'')
    near('routine_distance', sum(abs(e) for e in error.values()), table['routine_distance'])
    near('routine_share_error_max', max(abs(e) for e in error.values()), table['routine_share_error_max'])
    order = sorted(rrun, key=lambda r: (-rrun[r], r if r != '-' else 2**64))
    if [r['routine'] for r in table['rows']] != order:
        bad.append('routines in the order %s, not %s' % ([r['routine'] for r in table['rows']][:10], order[:10]))
    for row in table['rows']:
        r = row['routine']
        if r not in rrun:
            continue
        if row['instructions'] != rrun[r]:
            bad.append('routine %s: %s instructions, not %d' % (r, row['instructions'], rrun[r]))
        near('routine %s true_share' % r, Fraction(rrun[r], total), row['true_share'])
        near('routine %s projected_share' % r, rproj[r] / ptotal, row['projected_share'])
        near('routine %s share_error' % r, error[r], row['share_error'])


if __name__ == '__main__':
    sys.exit(main())
