#!/usr/bin/env python3
"""Reads a frequency-vector file as SimPoint 3.2's -loadFVFile does, and says
whether SimPoint would load every vector in it.

SimPoint (FVParser::nextLine) reads lines of at most 1 MiB - 3 bytes and a newline
with fgets, skips those that do not start with 'T', and parses the rest of a T
line as ':' int ':' double, again and again, with C++ stream extraction
(white space skipped), stopping at the first token it cannot read. A T line
with no token ends the file for it, silently. So a vector is lost, or cut
short, without an error when:
  - a line is too long (SimPoint stops with an error: stock build),
  - a T line has no token (the vectors after it are never read),
  - a token does not parse, or a dimension does not fit an int (the tokens
    after it are dropped),
  - the last T line has no newline (fgets then meets the end of the file,
    and nextLine returns before parsing it).
This script fails on each of these, and prints the number of vectors and
their dimensions' range when the file is one SimPoint reads whole.

Usage: simpoint-fv-check.py [--max-line BYTES] FILE
"""
import re
import sys

INT_MAX = 2**31 - 1
TOKEN = re.compile(r'\s*:\s*([+-]?\d+)\s*:\s*'
                   r'([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)')


def check(path, max_line):
    vectors = 0
    low, high = None, None
    with open(path, 'rb') as f:
        data = f.read()
    lines = data.split(b'\n')
    last = len(lines) - 1
    for number, raw in enumerate(lines, 1):
        if number - 1 == last and raw == b'':
            break
        # fgets fills BUF_SIZE - 1 bytes, newline included, and SimPoint
        # refuses a line that fills them.
        if len(raw) + 1 >= max_line - 1:
            return f'{path}:{number}: a line of {len(raw)} bytes and its newline; SimPoint reads at most {max_line - 3}'
        if not raw.startswith(b'T'):
            continue
        if number - 1 == last:
            return f'{path}:{number}: the last T line has no newline: SimPoint drops it'
        text = raw.decode('ascii', 'replace')
        pos, tokens = 1, 0
        while True:
            m = TOKEN.match(text, pos)
            if not m:
                break
            dim = int(m.group(1))
            if dim < 1 or dim > INT_MAX:
                return f'{path}:{number}: dimension {dim} is not a positive int'
            value = float(m.group(2))
            if value < 0:
                return f'{path}:{number}: a negative value, {m.group(2)}'
            low = dim if low is None else min(low, dim)
            high = dim if high is None else max(high, dim)
            pos, tokens = m.end(), tokens + 1
        if text[pos:].strip():
            return f'{path}:{number}: SimPoint stops reading this vector at column {pos + 1}: {text[pos:pos + 20]!r}'
        if tokens == 0:
            return f'{path}:{number}: an empty vector: SimPoint stops reading the file here'
        vectors += 1
    if vectors == 0:
        return f'{path}: no vector'
    print(f'{vectors} vectors, dimensions {low} to {high}')
    return None


def main(argv):
    max_line = 1024 * 1024
    if len(argv) == 3 and argv[0] == '--max-line':
        max_line = int(argv[1])
        argv = argv[2:]
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    problem = check(argv[0], max_line)
    if problem:
        print(problem, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
