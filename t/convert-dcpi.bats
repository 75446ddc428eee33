#!/usr/bin/env bats
# dcfg-convert --to dcpi: DCPI profile files (dcpiformat(4), header version
# pdb-0.07, binary data of major version 0), one per image.  The files are
# read by t/tools/dcpi-dump (written from the format document,
# ../shared/spec/dcpi-profile-format.txt, and real-readers.md, not from the
# writer), which reads them strictly and prints:
#
#   each header line as it is
#   samples PAD             the terminator line, PAD spaces before its newline
#   binary AT               where the binary part starts (a multiple of 4)
#   chunk OFFSET NUMBER
#     +I SAMPLES            every address of the chunk, zeros too
#   footer ADDRESSES SAMPLES
#
# (dcpi-dump -a prints "0xADDRESS SAMPLES" per address with samples instead
# of the chunks.)  It refuses chunks out of order or overlapping, offset +
# number > tsize, footer totals that disagree with the chunks, a binary
# part not at a multiple of 4, a header line outside the grammar, a
# required line missing or repeated, and so on: a file that dumps as
# expected is the expected bytes.  Every expected dump below was worked out
# by hand from the contract of issue 8 (--to dcpi); the comments show the
# arithmetic.
#
# Header line lengths (with the newline) used for the padding, which makes
# the binary part start at a multiple of 4:
#   "version pdb-0.07"            7 + 1 + 8 = 16, + 1 = 17
#   "image " + 16 hex digits      6 + 16 + 1 = 23
#   "epoch YYMMDDHHMM"            6 + 10 + 1 = 17
#   "platform x86_64"             9 + 6 + 1 = 16
#   "event retired-instructions"  6 + 20 + 1 = 27
#   so far 17 + 23 + 17 + 16 + 27 = 100
#   "period P"                    7 + digits + 1
#   "tstart HEX"                  7 + digits + 1
#   "tsize N"                     6 + digits + 1
#   "cpuspeed MHZ"                9 + digits + 1
#   "path FILE"                   5 + length + 1 (left out without a name)
#   "samples" + PAD + "\n"        8 + PAD
#
# The epoch: SOURCE_DATE_EPOCH=1700000000 is day 1700000000 / 86400 = 19675
# (19675 x 86400 = 1699920000), second 80000 of it = 22:13:20.  2023-01-01
# is day 53 x 365 + 13 leap days (1972..2020) = 19358; 19675 - 19358 = 317
# days into 2023: Jan..Oct hold 31+28+31+30+31+30+31+31+30+31 = 304 days,
# 317 - 304 = 13: November 14th.  So 2023-11-14 22:13 UTC: 2311142213
# (date -u -d @1700000000 +%y%m%d%H%M agrees).
#
# The image id: FNV-1a 64 (offset basis 0xcbf29ce484222325, prime
# 0x100000001b3) of the file name, a byte 0, the SIZE in decimal.  The
# values pasted below were computed once with a throwaway Python one-liner
# (h ^= byte; h = h * prime mod 2^64) and are checked again in every test by
# fnv1a, an awk version on 16-bit limbs (below): two methods, neither the
# writer's code.

load test_helper

D="$DATA/convert-prog.dcfg.json"
export SOURCE_DATE_EPOCH=1700000000

needs() {
	command -v dcpi-dump > /dev/null ||
	    { echo "dcpi-dump is not on PATH: build it with make test-tools (build/t)"; return 1; }
}

# fnv1a NAME SIZE: the 64-bit FNV-1a hash of NAME, a byte 0 and SIZE in
# decimal, as 16 lowercase hex digits.  awk's numbers are doubles, so the
# hash is four 16-bit limbs h[0] (low) .. h[3]; the prime is 2^40 + 0x1b3
# = 435 + 256 x 2^32, i.e. 435 in limb 0 and 256 in limb 2; the byte is
# xor-ed into the low 8 bits bit by bit.
# Offset basis limbs: 0x2325 = 8997, 0x8422 = 33826, 0x9ce4 = 40164,
# 0xcbf2 = 52210.
fnv1a() {
	{ if [ -n "$1" ]; then printf '%s' "$1"; fi; printf '\0%s' "$2"; } | od -A n -t u1 -v |
	awk 'function xor8(a, b,   r, bit) {
	        r = 0
	        for (bit = 1; bit < 256; bit *= 2)
	            if ((int(a / bit) % 2) != (int(b / bit) % 2)) r += bit
	        return r }
	    BEGIN { h[0] = 8997; h[1] = 33826; h[2] = 40164; h[3] = 52210 }
	    { for (i = 1; i <= NF; i++) {
	        lo = h[0] % 256
	        h[0] = h[0] - lo + xor8(lo, $i)
	        r[0] = h[0] * 435; r[1] = h[1] * 435
	        r[2] = h[2] * 435 + h[0] * 256; r[3] = h[3] * 435 + h[1] * 256
	        c = 0
	        for (k = 0; k < 4; k++) { v = r[k] + c; h[k] = v % 65536; c = int(v / 65536) } } }
	    END { printf "%04x%04x%04x%04x\n", h[3], h[2], h[1], h[0] }'
}

# hexid NAME SIZE PASTED: PASTED, after checking that fnv1a agrees.
hexid() {
	local h
	h=$(fnv1a "$1" "$2")
	if [ "$h" != "$3" ]; then
		echo "fnv1a '$1' $2 = $h, the pasted value is $3" >&2
		return 1
	fi
	echo "$3"
}

# dump FILE: dcpi-dump FILE > FILE.dump; it must accept FILE.
dump() {
	dcpi-dump "$@" > "${!#}.dump" 2> dump.err || {
		echo "dcpi-dump $* refused it:"; cat dump.err; return 1; }
}

# expect_dump FILE < EXPECTED
expect_dump() {
	cat > expected.dump
	dump "$1"
	diff -u expected.dump "$1.dump"
}

# ok_quiet: the last capture succeeded without a word.
ok_quiet() {
	[ "$status" -eq 0 ] && [ ! -s stdout ] && [ ! -s stderr ] || { show; return 1; }
}

# head6 HEXID PERIOD: the first six header lines, the last "period PERIOD".
head6() {
	printf '%s\n' 'version pdb-0.07' "image $1" 'epoch 2311142213' 'platform x86_64' \
	    'event retired-instructions' "period $2"
}

# ---------------------------------------------------------------------------
# The reader itself.
#
# dp_file [VAR=VALUE...]: a hand-made profile: header lines HEADER (\n for
# newlines; default the nine required ones, tstart 1000, tsize 16), the
# terminator "samples" + PAD spaces, then the u32 words WORDS.  Default
# header: 17 + 15 ("image 0123abcd\n") + 17 + 16 + 27 + 9 + 12 ("tstart
# 1000\n") + 9 ("tsize 16\n") + 11 = 133, "samples" 7 + PAD 2 + 1 = 143:
# hmm, 133 + 10 = 143 is not a multiple of 4: PAD 3 makes 144.
# Default words: chunk 2 3 {4 0 5}, chunk 8 1 {6}, footer 3 15.
dp_file() {
	env "$@" perl -e '
	    my $h = $ENV{HEADER} // "version pdb-0.07\nimage 0123abcd\nepoch 2311142213\n" .
	        "platform x86_64\nevent retired-instructions\nperiod 1\ntstart 1000\n" .
	        "tsize 16\ncpuspeed 0\n";
	    $h =~ s/\\n/\n/g; $h =~ s/\\t/\t/g;
	    my $pad = $ENV{PAD} // 3;
	    my $w = $ENV{WORDS} // "2 3 4 0 5 8 1 6 3 15";
	    print $h, "samples", " " x $pad, "\n", pack("V*", split / /, $w), $ENV{TAIL} // "";'
}

refused() {
	capture dcpi-dump "$1"
	if [ "$status" -ne 1 ] || [ -s stdout ] || [ "$(wc -l < stderr)" -ne 1 ] ||
	    ! grep -Eq -- "$2" stderr; then
		show
		echo "--- expected exit 1 and stderr matching: $2"
		return 1
	fi
}

@test "dcpi-dump reads a hand-made profile and refuses broken ones" {
	needs
	dp_file > ok.prof
	# 144 + 10 words x 4
	[ "$(wc -c < ok.prof)" -eq 184 ]
	expect_dump ok.prof <<'EOF'
version pdb-0.07
image 0123abcd
epoch 2311142213
platform x86_64
event retired-instructions
period 1
tstart 1000
tsize 16
cpuspeed 0
samples 3
binary 144
chunk 2 3
  +0 4
  +1 0
  +2 5
chunk 8 1
  +0 6
footer 3 15
EOF
	dump -a ok.prof
	printf '%s\n' '0x1002 4' '0x1004 5' '0x1008 6' | diff -u - ok.prof.dump
	# unknown and optional lines are kept as they are; no chunk at all.
	# 17 + "image ff" 9 + 17 + "platform x" 11 + "event e" 8 + 9 +
	# "tstart 0" 9 + "tsize 0" 8 + 11 + "path /a b" 10 + "foo<TAB>bar baz"
	# 12 = 121, + 8 = 129: PAD 3, 132
	dp_file HEADER='version pdb-0.07\nimage ff\nepoch 0001010000\nplatform x\nevent e\nperiod 1\ntstart 0\ntsize 0\ncpuspeed 0\npath /a b\nfoo\tbar baz\n' \
	    PAD=3 WORDS='0 0' > empty.prof
	dump empty.prof
	tail -n 5 empty.prof.dump | diff -u - <(printf '%s\n' 'path /a b' "$(printf 'foo\tbar baz')" 'samples 3' 'binary 132' 'footer 0 0')

	dp_file PAD=2 > pad.prof
	refused pad.prof 'starts at byte 143, not a multiple of 4'
	dp_file HEADER='version pdb-0.07\nimage 1\nepoch 2311142213\nplatform x86_64\nevent e\nperiod 1\ntstart 1000\ntsize 16\n' > nocpu.prof
	refused nocpu.prof 'no cpuspeed line'
	dp_file HEADER='version pdb-0.07\nimage 1\nepoch 2311142213\nplatform x86_64\nevent e\nperiod 1\nperiod 2\ntstart 1000\ntsize 16\ncpuspeed 0\n' > twice.prof
	refused twice.prof 'a second period line'
	dp_file HEADER='version pdb-0.07\nimage 1\nepoch 2311142213\nplatform x86_64\nevent e\nperiod 1\ntstart 0x1000\ntsize 16\ncpuspeed 0\n' > hex.prof
	refused hex.prof 'not in the grammar: "tstart 0x1000"'
	dp_file HEADER='version pdb-1.01\nimage 1\nepoch 2311142213\nplatform x86_64\nevent e\nperiod 1\ntstart 1000\ntsize 16\ncpuspeed 0\n' > v1.prof
	refused v1.prof 'only major version 0'
	dp_file HEADER='version pdb-0.07\nimage 1\nepoch 2311142213\nplatform x86_64\nevent e\nperiod 1\ntstart 1000\ntsize 16\ncpuspeed 0\nnovalue\n' > word.prof
	refused word.prof 'no space after its word'
	printf 'version pdb-0.07\nimage 1\n' > nosamples.prof
	refused nosamples.prof 'no samples line|no newline'
	dp_file WORDS='8 1 6 2 3 4 0 5 3 15' > order.prof
	refused order.prof 'out of order or overlaps'
	dp_file WORDS='2 3 4 0 5 4 1 6 3 15' > overlap.prof
	refused overlap.prof 'offset 4 is out of order or overlaps'
	dp_file WORDS='2 3 4 0 5 15 2 6 7 4 21' > tsize.prof
	refused tsize.prof 'offset 15 \+ number 2 > tsize 16'
	dp_file WORDS='2 3 4 0 5 8 1 6 4 15' > addrs.prof
	refused addrs.prof 'footer: 4 addresses'
	dp_file WORDS='2 3 4 0 5 8 1 6 3 14' > sum.prof
	refused sum.prof 'footer: 14 samples'
	dp_file WORDS='2 3 4 0 5 8 1 6 3 15 0' > trail.prof
	refused trail.prof '.'
	dp_file WORDS='2 3 4 0 5 8 1 6 3 15' TAIL=xy > trail2.prof
	refused trail2.prof 'not a multiple of 4'
	dp_file WORDS='2 0 8 1 6 1 6' > zero.prof
	refused zero.prof 'number 0'
	dp_file WORDS='2 9 4 0 5 1 9' > over.prof
	refused over.prof 'overrun'
	dp_file WORDS='0' > nofooter.prof
	refused nofooter.prof 'no footer'
}

# ---------------------------------------------------------------------------
# convert-prog (t/data/convert-prog.dcfg.json, described in convert.bats):
# process 500, image 1 /home/u/prog, LOAD_ADDR 0x400000, SIZE 8192.
#
# tstart: the lowest block, 10 at 0x401000: "401000".  tsize: the highest
# block end is unused's block 90, 0x401300 + 2 = 0x401302 (never executed,
# but a block): 0x302 = 770.  Counts summed over the threads (executions x
# NUM_INSTRS, convert.bats): S = 77, so P = 1.
#
# Samples by offset from 0x401000:
#   10 +0x000 = 0    6        20 +0x100 = 256  15
#   11 +0x008 = 8    10       21 +0x107 = 263  5
#   12 +0x00e = 14   3        30 +0x200 = 512  18
#   13 +0x013 = 19   3        31 +0x206 = 518  4
#   14 +0x015 = 21   4        32 +0x20b = 523  9
#   (90 +0x300 = 768 ran 0 times: no sample)
# Chunks: 8 is 8 bytes after 0, 14 is 6 after 8, 19 is 5 after 14: each
# its own chunk; 21 is 2 after 19: joins it, with 20 at sample 0; 256, 263
# (7 after), 512, 518 (6), 523 (5): each its own.  Footer: 10 addresses,
# 77 samples.
#
# Header: 100 + "period 1" 9 + "tstart 401000" 14 + "tsize 770" 10 +
# "cpuspeed 0" 11 + "path /home/u/prog" 5 + 12 + 1 = 18: 162; "samples"
# + PAD + "\n": 170 + PAD, a multiple of 4 with PAD 2: the binary at 172.
# Binary: 8 chunks of one address (12 bytes) + one of 3 (8 + 12) + the
# footer 8 = 96 + 20 + 8 = 124: the file is 296 bytes.
prog_samples() {
	cat <<'EOF'
chunk 0 1
  +0 6
chunk 8 1
  +0 10
chunk 14 1
  +0 3
chunk 19 3
  +0 3
  +1 0
  +2 4
chunk 256 1
  +0 15
chunk 263 1
  +0 5
chunk 512 1
  +0 18
chunk 518 1
  +0 4
chunk 523 1
  +0 9
footer 10 77
EOF
}

PROG_ID=fd6a409129ff5512	# FNV-1a of "/home/u/prog" 0 "8192"

@test "convert-prog: the header, the id, the padding, chunks joined across gaps of at most 3 bytes" {
	needs
	[ "$(date -u -d @1700000000 +%y%m%d%H%M)" = 2311142213 ]
	id=$(hexid /home/u/prog 8192 "$PROG_ID")
	dcfg_convert --to dcpi --dcfg "$D" --out-dir d
	ok_quiet
	[ "$(ls d)" = prog ]
	{ head6 "$id" 1
	  printf '%s\n' 'tstart 401000' 'tsize 770' 'cpuspeed 0' 'path /home/u/prog' 'samples 2' 'binary 172'
	  prog_samples; } | expect_dump d/prog
	[ "$(wc -c < d/prog)" -eq 296 ]
	# the terminator as it is, the two padding spaces before its newline
	[ "$(head -c 172 d/prog | tail -c 10 | od -A n -t x1 | tr -d ' \n')" = '73616d706c657320200a' ]

	# the same run again: the same bytes (the id is stable)
	dcfg_convert --to dcpi --dcfg "$D" --out-dir d2
	ok_quiet
	cmp d/prog d2/prog
}

@test "--cpuspeed MHZ, and the padding it moves" {
	needs
	id=$(hexid /home/u/prog 8192 "$PROG_ID")
	# "cpuspeed 2400" is 3 bytes longer: 165, + 8 = 173 + PAD: PAD 3, 176
	dcfg_convert --to dcpi --dcfg "$D" --out-dir d --cpuspeed 2400
	ok_quiet
	{ head6 "$id" 1
	  printf '%s\n' 'tstart 401000' 'tsize 770' 'cpuspeed 2400' 'path /home/u/prog' 'samples 3' 'binary 176'
	  prog_samples; } | expect_dump d/prog
	# "cpuspeed 10" is 1 longer: 163, + 8 = 171: PAD 1, 172
	dcfg_convert --to dcpi --dcfg "$D" --out-dir e --cpuspeed 10
	ok_quiet
	{ head6 "$id" 1
	  printf '%s\n' 'tstart 401000' 'tsize 770' 'cpuspeed 10' 'path /home/u/prog' 'samples 1' 'binary 172'
	  prog_samples; } | expect_dump e/prog
	# "cpuspeed 100": 164, + 8 = 172: no padding
	dcfg_convert --to dcpi --dcfg "$D" --out-dir f --cpuspeed 100
	ok_quiet
	{ head6 "$id" 1
	  printf '%s\n' 'tstart 401000' 'tsize 770' 'cpuspeed 100' 'path /home/u/prog' 'samples 0' 'binary 172'
	  prog_samples; } | expect_dump f/prog
}

@test "the epoch: SOURCE_DATE_EPOCH in UTC, or now" {
	needs
	# 0: 1970-01-01 00:00
	SOURCE_DATE_EPOCH=0 dcfg-convert --to dcpi --dcfg "$D" --out-dir a
	dump a/prog
	[ "$(sed -n 3p a/prog.dump)" = 'epoch 7001010000' ]
	# 951782400 = 11016 x 86400: 2000-01-01 is day 30 x 365 + 7 = 10957,
	# 11016 - 10957 = 59 = 31 (Jan) + 28: the 29th of February, 00:00
	SOURCE_DATE_EPOCH=951782400 dcfg-convert --to dcpi --dcfg "$D" --out-dir b
	dump b/prog
	[ "$(sed -n 3p b/prog.dump)" = 'epoch 0002290000' ]
	# + 59 x 60 + 59 = 3599 s: 00:59 (the seconds are not written)
	SOURCE_DATE_EPOCH=951785999 dcfg-convert --to dcpi --dcfg "$D" --out-dir c
	dump c/prog
	[ "$(sed -n 3p c/prog.dump)" = 'epoch 0002290059' ]
	# 4102444800 = 47482 x 86400: 130 years of 365 days + 32 leap days
	# (1972..2096; 2100 is not one) = 47482: 2100-01-01 00:00, the year
	# written mod 100
	SOURCE_DATE_EPOCH=4102444800 dcfg-convert --to dcpi --dcfg "$D" --out-dir y
	dump y/prog
	[ "$(sed -n 3p y/prog.dump)" = 'epoch 0001010000' ]
	# unset: now
	before=$(date -u +%y%m%d%H%M)
	env -u SOURCE_DATE_EPOCH dcfg-convert --to dcpi --dcfg "$D" --out-dir n
	after=$(date -u +%y%m%d%H%M)
	dump n/prog
	epoch=$(sed -n 3p n/prog.dump)
	[ "$epoch" = "epoch $before" ] || [ "$epoch" = "epoch $after" ] || { echo "$epoch, $before..$after"; false; }
}

# ---------------------------------------------------------------------------
# t/data/convert-dcpi-chunks.dcfg.json: process 42, one thread, every block
# entered straight from START (ENTRY edges): its executions are its edge's
# count.
#
# Image 1 "/opt/app/bin/tool" at 0x10000, SIZE 65536:
#   block  offset size instrs exec  count       from tstart 0x10100
#   3      0x100  1    1      5     5           0
#   4      0x101  2    1      2     2           1   (1 after 0: joins)
#   5      0x103  3    1      1     1           3   (2 after 1: joins)
#   6      0x106  2    1      3     3           6   (3 after 3: joins)
#   7      0x106  4    2      2     4           6   the same address: 3 + 4 = 7
#   8      0x10a  1    1      1     1           10  (4 after 6: a new chunk)
#   9      0x10b  3    1      0     -           11
#   10     0x10e  2    1      4     4           14  (4 after 10, the last address
#                                                    with a sample: a new chunk,
#                                                    though block 9 lies between)
#   11     0x110  1    1      0     -           16
#   12     0x111  1    1      6     6           17  (3 after 14: joins)
#   13     0x200  16   3      0     -           the highest end: 0x210
# tstart 10100, tsize 0x210 - 0x100 = 0x110 = 272.  Sum 26: P = 1.
# Chunks: 0 x 7 {5 2 0 1 0 0 7}, 10 x 1 {1}, 14 x 4 {4 0 0 6}; footer 7
# addresses (0 1 3 6 10 14 17), 5+2+1+7+1+4+6 = 26 samples.
# Header: 100 + 9 + "tstart 10100" 13 + "tsize 272" 10 + 11 + "path
# /opt/app/bin/tool" 5 + 17 + 1 = 23: 166, + 8 = 174 + PAD: PAD 2, 176.
#
# The other images (one block each, at offset 0 unless said):
#   2  "/usr/lib/libc.so.6"  0x7f0000000000 SIZE 4096: block 0x10, 2 instrs,
#      3 times: libc.so.6, tstart 7f0000000010, tsize 4, one chunk {6}
#   3  no file name          0x600000 SIZE 256: block 0x8 size 2, never
#      run: image3, no path line, no chunk
#   4  "/opt/other/tool"     tool as image 1: tool-1 and tool-4
#   5  "/weird/dir/"         an empty base name: image5
#   6  "/a/b\001c\177"       b?c?
#   7  ".."                  image7
#   8  "/no/blocks"          no block: no file
#   9  "/x/."                "." is image9, as is 10's "/p/image9": image9-9
#   10 "/p/image9"           and image9-10
# Instructions: 26 + 6 + 1 (image 6's block, once) = 33.
C="$DATA/convert-dcpi-chunks.dcfg.json"

@test "file names: base names, image<ID>, control bytes, -ID for names shared; only images with blocks" {
	needs
	dcfg_convert --to dcpi --dcfg "$C" --out-dir d
	ok_quiet
	[ "$(cd d && LC_ALL=C ls | tr '\n' ' ')" = \
	    'b?c? image3 image5 image7 image9-10 image9-9 libc.so.6 tool-1 tool-4 ' ] ||
	    { ls d; false; }
	for f in d/*; do dump "$f"; done
	# the path line holds the image's file name
	grep -qx 'path /weird/dir/' d/image5.dump
	grep -qx 'path \.\.' d/image7.dump
	grep -qx 'path /x/\.' d/image9-9.dump
	grep -qx 'path /p/image9' d/image9-10.dump
	grep -qx 'path /opt/other/tool' d/tool-4.dump
	# the images that never ran: period 1, no chunk
	for f in image3 image5 image7 image9-9 image9-10 tool-4; do
		grep -qx 'period 1' "d/$f.dump"
		[ "$(tail -n 1 "d/$f.dump")" = 'footer 0 0' ]
		! grep -q '^chunk' "d/$f.dump"
	done
	[ "$(tail -n 1 'd/b?c?.dump')" = 'footer 1 1' ]
}

@test "chunks: gaps of 1, 2 and 3 bytes join, 4 do not; blocks at one address add up; tsize to the highest block end" {
	needs
	id=$(hexid /opt/app/bin/tool 65536 f34fad0011e0001d)
	dcfg_convert --to dcpi --dcfg "$C" --out-dir d
	ok_quiet
	{ head6 "$id" 1
	  printf '%s\n' 'tstart 10100' 'tsize 272' 'cpuspeed 0' 'path /opt/app/bin/tool' 'samples 2' 'binary 176'
	  cat <<'EOF'
chunk 0 7
  +0 5
  +1 2
  +2 0
  +3 1
  +4 0
  +5 0
  +6 7
chunk 10 1
  +0 1
chunk 14 4
  +0 4
  +1 0
  +2 0
  +3 6
footer 7 26
EOF
	} | expect_dump d/tool-1
	# 176 + (8 + 28) + (8 + 4) + (8 + 16) + 8
	[ "$(wc -c < d/tool-1)" -eq 256 ]

	# libc.so.6: 100 + 9 + "tstart 7f0000000010" 20 + "tsize 4" 8 + 11 +
	# "path /usr/lib/libc.so.6" 5 + 18 + 1 = 24: 172, + 8 = 180: no padding
	id=$(hexid /usr/lib/libc.so.6 4096 195bc32389c7447e)
	{ head6 "$id" 1
	  printf '%s\n' 'tstart 7f0000000010' 'tsize 4' 'cpuspeed 0' 'path /usr/lib/libc.so.6' \
	      'samples 0' 'binary 180' 'chunk 0 1' '  +0 6' 'footer 1 6'; } | expect_dump d/libc.so.6
}

@test "an image without a file name: image<ID>, no path line, the id of an empty name" {
	needs
	# FNV-1a of a byte 0 and "256"
	id=$(hexid '' 256 c5b5fc7fe1e4d470)
	dcfg_convert --to dcpi --dcfg "$C" --out-dir d
	ok_quiet
	# 100 + 9 + "tstart 600008" 14 + "tsize 2" 8 + 11 = 142, + 8 = 150:
	# PAD 2, 152; the footer alone
	{ head6 "$id" 1
	  printf '%s\n' 'tstart 600008' 'tsize 2' 'cpuspeed 0' 'samples 2' 'binary 152' 'footer 0 0'; } |
	    expect_dump d/image3
	[ "$(wc -c < d/image3)" -eq 160 ]
}

# ---------------------------------------------------------------------------
# t/data/convert-dcpi-period.dcfg.json: process 9, entered from START.
# Image 1 "/bin/hot" at 0x400000, SIZE 4096:
#   10 +0x10 size 8 4 instrs 2500000000 times: 10000000000
#   11 +0x18 size 1 1 instr  7 times:          7
#   12 +0x19 size 4 3 instrs once:             3
#   13 +0x1d size 3 2 instrs once:             2
#   14 +0x30 size 2 1 instr  twice:            2   one address: 2 + 2 = 4
#   15 +0x30 size 4 2 instrs once:             2
#   S = 10000000016 > 2^32-1 = 4294967295: P = ceil(S / 4294967295):
#   2 x 4294967295 = 8589934590 < S <= 3 x 4294967295 = 12884901885: P = 3.
#   Samples: 10000000000 / 3 = 3333333333 (3 x 3333333333 = 9999999999),
#   7 / 3 = 2, 3 / 3 = 1, 2 / 3 = 0 (no sample), 0x30: 4 / 3 = 1 (the
#   counts add up before the division: 2/3 + 2/3 would be 0).  Offsets from
#   0x400010: 0, 8, 9, 0x20 = 32 (13 has none): chunks 0 x 1 {3333333333},
#   8 x 2 {2 1}, 32 x 1 {1}; footer 4 addresses, 3333333337.  tsize: the
#   highest end 0x30 + 4 = 0x34, - 0x10 = 0x24 = 36.
#   Header: 100 + "period 3" 9 + "tstart 400010" 14 + "tsize 36" 9 + 11 +
#   "path /bin/hot" 14 = 157, + 8 = 165: PAD 3, 168.
# Image 2 "/lib/cold.so" at 0x7f0000, SIZE 8192: 5 instrs x 3 = 15 at +0x100,
#   P = 1 (each image its own period); tstart 7f0100, tsize 5.
#   Header: 100 + 9 + 14 + "tsize 5" 8 + 11 + "path /lib/cold.so" 18 = 160,
#   + 8 = 168: no padding.
# Image 3 "/lib/edge1.so" at 0x900000: 1 instr x 4294967295 = 2^32-1
#   exactly: P = 1, the sample 4294967295.
# Image 4 "/lib/edge2.so" at 0xa00000: 2 instrs x 2147483648 = 2^32:
#   P = ceil(4294967296 / 4294967295) = 2, the sample 2147483648.
#   Headers: 100 + 9 + 14 + "tsize 1"/"tsize 2" 8 + 11 + "path
#   /lib/edgeN.so" 19 = 161, + 8 = 169: PAD 3, 172.
P="$DATA/convert-dcpi-period.dcfg.json"

@test "the period: P = ceil(S / (2^32-1)) per image, samples divided and rounded down" {
	needs
	dcfg_convert --to dcpi --dcfg "$P" --out-dir d
	ok_quiet
	[ "$(ls d | tr '\n' ' ')" = 'cold.so edge1.so edge2.so hot ' ]
	id=$(hexid /bin/hot 4096 891fe509e0fad302)
	{ head6 "$id" 3
	  printf '%s\n' 'tstart 400010' 'tsize 36' 'cpuspeed 0' 'path /bin/hot' 'samples 3' 'binary 168' \
	      'chunk 0 1' '  +0 3333333333' 'chunk 8 2' '  +0 2' '  +1 1' 'chunk 32 1' '  +0 1' \
	      'footer 4 3333333337'; } |
	    expect_dump d/hot
	id=$(hexid /lib/cold.so 8192 ecb51fbfb9beb650)
	{ head6 "$id" 1
	  printf '%s\n' 'tstart 7f0100' 'tsize 5' 'cpuspeed 0' 'path /lib/cold.so' 'samples 0' 'binary 168' \
	      'chunk 0 1' '  +0 15' 'footer 1 15'; } | expect_dump d/cold.so
	id=$(hexid /lib/edge1.so 4096 3d25de33a4b0af11)
	{ head6 "$id" 1
	  printf '%s\n' 'tstart 900000' 'tsize 1' 'cpuspeed 0' 'path /lib/edge1.so' 'samples 3' 'binary 172' \
	      'chunk 0 1' '  +0 4294967295' 'footer 1 4294967295'; } | expect_dump d/edge1.so
	id=$(hexid /lib/edge2.so 4096 2472563841d86ed8)
	{ head6 "$id" 2
	  printf '%s\n' 'tstart a00000' 'tsize 2' 'cpuspeed 0' 'path /lib/edge2.so' 'samples 3' 'binary 172' \
	      'chunk 0 1' '  +0 2147483648' 'footer 1 2147483648'; } | expect_dump d/edge2.so
}

# ---------------------------------------------------------------------------
# Processes, options and errors

@test "one process: -p chooses it among several" {
	needs
	cp "$DATA/convert-two.dcfg.json" two.json
	dcfg_convert --to dcpi --dcfg two.json --out-dir d
	expect_error 'dcfg-convert: two.json: the DCFG has 2 processes; choose one with -p'
	[ -z "$(ls d 2> /dev/null)" ]
	# process 1000 (threads summed): /bin/b at 0x10000, SIZE 4096, one
	# block at +0 of size 3, 2 instrs, run 3 times: 6 at offset 0; tsize 3.
	# Header: 100 + 9 + "tstart 10000" 13 + "tsize 3" 8 + 11 + "path
	# /bin/b" 12 = 153, + 8 = 161: PAD 3, 164
	dcfg_convert --to dcpi --dcfg two.json --out-dir d -p 1000
	ok_quiet
	[ "$(ls d)" = b ]
	id=$(hexid /bin/b 4096 73f85284601dbcad)
	{ head6 "$id" 1
	  printf '%s\n' 'tstart 10000' 'tsize 3' 'cpuspeed 0' 'path /bin/b' 'samples 3' 'binary 164' \
	      'chunk 0 1' '  +0 6' 'footer 1 6'; } | expect_dump d/b
}

@test "usage errors of --to dcpi" {
	dcfg_convert --to dcpi --dcfg "$D"
	expect_error 'dcfg-convert: --to dcpi needs --out-dir'
	prog_trace=$(mktemp -p .)
	dcfg-encode --dcfg "$D" "$DATA/convert-prog.stream" > "$prog_trace"
	dcfg_convert --to dcpi --dcfg "$D" --trace "$prog_trace" --out-dir d
	expect_error 'dcfg-convert: --trace is not used by --to dcpi'
	dcfg_convert --to dcpi --dcfg "$D" --separate-threads --out-dir d
	expect_error 'dcfg-convert: --separate-threads is not used by --to dcpi'
	dcfg_convert --to dcpi --dcfg "$D" --cmd prog --out-dir d
	expect_error 'dcfg-convert: --cmd is not used by --to dcpi'
	dcfg_convert --to dcpi --dcfg "$D" --routine main --out-dir d
	expect_error 'dcfg-convert: --routine is not used by --to dcpi'
	dcfg_convert --to dcpi --dcfg "$D" --min-count 2 --out-dir d
	expect_error 'dcfg-convert: --min-count is not used by --to dcpi'
	# the first in the order --trace, --separate-threads, --cmd
	dcfg_convert --to dcpi --dcfg "$D" --cmd prog --trace "$prog_trace" --out-dir d
	expect_error 'dcfg-convert: --trace is not used by --to dcpi'
	dcfg_convert --to dcpi --dcfg "$D" --out-dir d --cpuspeed fast
	expect_error 'dcfg-convert: --cpuspeed fast: not a number'
	dcfg_convert --to dcpi --dcfg "$D" --out-dir d --cpuspeed 12x
	expect_error 'dcfg-convert: --cpuspeed 12x: not a number'
	[ ! -e d ] || [ -z "$(ls d)" ]
}

@test "SOURCE_DATE_EPOCH that is not decimal seconds" {
	SOURCE_DATE_EPOCH=abc capture dcfg-convert --to dcpi --dcfg "$D" --out-dir d
	expect_error 'dcfg-convert: SOURCE_DATE_EPOCH=abc: not a number of seconds'
	SOURCE_DATE_EPOCH=17e8 capture dcfg-convert --to dcpi --dcfg "$D" --out-dir d
	expect_error 'dcfg-convert: SOURCE_DATE_EPOCH=17e8: not a number of seconds'
	SOURCE_DATE_EPOCH=0x10 capture dcfg-convert --to dcpi --dcfg "$D" --out-dir d
	expect_error 'dcfg-convert: SOURCE_DATE_EPOCH=0x10: not a number of seconds'
	[ ! -e d/prog ]
	# the other formats do not read it
	SOURCE_DATE_EPOCH=abc capture dcfg-convert --to callgrind --dcfg "$D"
	[ "$status" -eq 0 ] && [ ! -s stderr ] || { show; false; }
}

# wide_json OFFSET [NAME]: process 5, image 1 NAME (default "/bin/wide") at
# 0x10000, SIZE 2^33, two blocks of size 1 and 1 instruction, at +0x0 and
# at +OFFSET, each run once.
wide_json() {
	printf '%s\n' \
	    "{\"MAJOR_VERSION\": 1, \"MINOR_VERSION\": 0, \"FILE_NAMES\": [[\"FILE_NAME_ID\", \"FILE_NAME\"], [1, \"${2:-/bin/wide}\"]]," \
	    ' "EDGE_TYPES": [["EDGE_TYPE_ID", "EDGE_TYPE"], [1, "ENTRY"], [2, "EXIT"], [3, "DIRECT_UNCONDITIONAL_BRANCH"]],' \
	    ' "SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [1, "START"], [2, "END"]],' \
	    ' "PROCESSES": [["PROCESS_ID", "PROCESS_DATA"], [5, {"INSTR_COUNT_PER_THREAD": [2], "INSTR_COUNT": 2,' \
	    '  "IMAGES": [["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"],' \
	    '   [1, "0x10000", 8589934592, {"FILE_NAME_ID": 1, "BASIC_BLOCKS": [["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"],' \
	    "    [3, \"0x0\", 1, 1, 0, 1], [4, \"$1\", 1, 1, 0, 1]]}]]," \
	    '  "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    '   [1, 1, 3, 1, [1]], [2, 3, 4, 3, [1]], [3, 4, 2, 2, [1]]]}]]}'
}

@test "an image that spans more than 4 GiB; exactly 2^32-1 bytes is fine" {
	needs
	# blocks at +0 and +0x100000000 (size 1): tsize 2^32 + 1 > 2^32-1
	wide_json 0x100000000 > wide.json
	dcfg-convert --to callgrind --dcfg wide.json > /dev/null	# the DCFG itself is fine
	dcfg_convert --to dcpi --dcfg wide.json --out-dir d
	expect_error 'dcfg-convert: wide.json: image 1 spans more than 4 GiB'
	[ ! -e d/wide ]

	# blocks at +0 and +0xfffffffe: the end 0xffffffff, tsize 4294967295;
	# samples 1 at offset 0 and at 4294967294 (4294967294 + 1 <= tsize).
	# Header: 100 + 9 + "tstart 10000" 13 + "tsize 4294967295" 17 + 11 +
	# "path /bin/wide" 15 = 165, + 8 = 173: PAD 3, 176
	wide_json 0xfffffffe > edge.json
	dcfg_convert --to dcpi --dcfg edge.json --out-dir e
	ok_quiet
	id=$(hexid /bin/wide 8589934592 2422dabb6ab27be9)
	{ head6 "$id" 1
	  printf '%s\n' 'tstart 10000' 'tsize 4294967295' 'cpuspeed 0' 'path /bin/wide' 'samples 3' 'binary 176' \
	      'chunk 0 1' '  +0 1' 'chunk 4294967294 1' '  +0 1' 'footer 2 2'; } | expect_dump e/wide
}

@test "a long base name is the file name, whole" {
	needs
	# 250 bytes: a valid file name (NAME_MAX is 255)
	long=$(printf 'n%.0s' $(seq 250))
	wide_json 0x10 "/lib/$long" > long.json
	dcfg_convert --to dcpi --dcfg long.json --out-dir d
	ok_quiet
	[ "$(ls d)" = "$long" ] || { echo "got a name of $(ls d | tr -d '\n' | wc -c) bytes: $(ls d)"; false; }
	dump "d/$long"
	grep -qx "path /lib/$long" "d/$long.dump"
}

# three_json NAME1 NAME4 NAME7 [OFFSET7]: process 6, images 1, 4 and 7 with
# those file names at 0x10000, 0x20000, 0x30000 (SIZE 2^33), one block of
# 1 instruction each at +0, run once; image 7 has a second block (never
# run) at +OFFSET7 (default 0x8).
three_json() {
	local i=0 id more
	printf '%s\n' \
	    "{\"MAJOR_VERSION\": 1, \"MINOR_VERSION\": 0, \"FILE_NAMES\": [[\"FILE_NAME_ID\", \"FILE_NAME\"], [1, \"$1\"], [4, \"$2\"], [7, \"$3\"]]," \
	    ' "EDGE_TYPES": [["EDGE_TYPE_ID", "EDGE_TYPE"], [1, "ENTRY"], [2, "EXIT"]],' \
	    ' "SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [1, "START"], [2, "END"]],' \
	    ' "PROCESSES": [["PROCESS_ID", "PROCESS_DATA"], [6, {"INSTR_COUNT_PER_THREAD": [3], "INSTR_COUNT": 3,' \
	    '  "IMAGES": [["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"],'
	for id in 1 4 7; do
		i=$((i + 1))
		more=
		[ "$id" = 7 ] && more=", [18, \"${4:-0x8}\", 1, 1, 0, 0]"
		printf '   [%d, "0x%d0000", 8589934592, {"FILE_NAME_ID": %d, "BASIC_BLOCKS": [["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"], [%d, "0x0", 1, 1, 0, 1]%s]}]%s\n' \
		    "$id" "$i" "$id" $((10 + id)) "$more" "$([ "$id" = 7 ] && echo '],' || echo ',')"
	done
	printf '%s\n' '  "EDGES": [["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],' \
	    '   [1, 1, 11, 1, [1]], [2, 1, 14, 1, [1]], [3, 1, 17, 1, [1]], [4, 17, 2, 2, [1]]]}]]}'
}

@test "names that still collide after -ID; every image is checked before the first file is written" {
	needs
	# tool, tool and tool-4: tool-1, tool-4 and tool-4 again (dcfg-convert(1):
	# nothing is written, exit 2)
	three_json /a/tool /b/tool /c/tool-4 > same.json
	dcfg-convert --to callgrind --dcfg same.json > /dev/null	# the DCFG itself is fine
	dcfg_convert --to dcpi --dcfg same.json --out-dir d
	expect_error_like '^dcfg-convert: .*tool-4'
	[ -z "$(ls d 2> /dev/null)" ]
	# image 7 spans more than 4 GiB: images 1 and 4 are not written either
	three_json /a/one /b/two /c/three 0x100000000 > wide3.json
	dcfg_convert --to dcpi --dcfg wide3.json --out-dir w
	expect_error 'dcfg-convert: wide3.json: image 7 spans more than 4 GiB'
	[ -z "$(ls w 2> /dev/null)" ]
	# the same without the wide block: one, two, three
	three_json /a/one /b/two /c/three > ok3.json
	dcfg_convert --to dcpi --dcfg ok3.json --out-dir k
	ok_quiet
	[ "$(ls k | tr '\n' ' ')" = 'one three two ' ]
}

@test "--out-dir: created one level deep, not two" {
	needs
	dcfg_convert --to dcpi --dcfg "$D" --out-dir no/such
	[ "$status" -eq 2 ] && [ ! -s stdout ] || { show; false; }
	[ "$(wc -l < stderr)" -eq 1 ] && grep -q '^dcfg-convert: ' stderr || { show; false; }
	[ ! -e no ]
	mkdir have
	dcfg_convert --to dcpi --dcfg "$D" --out-dir have
	ok_quiet
	[ "$(ls have)" = prog ]
}

# ---------------------------------------------------------------------------
# gen-pair: every instruction of the DCFG is a sample somewhere.

@test "gen-pair: one file per image, the samples of every address, their sum the DCFG's instructions" {
	needs
	command -v gen-pair > /dev/null || { echo "gen-pair is not on PATH"; false; }
	command -v jq > /dev/null || skip "jq is not installed"
	for seed in 61 62; do
		rm -rf p d
		gen-pair --seed "$seed" --threads 3 --edges 20000 p > /dev/null
		dcfg_convert --to dcpi --dcfg p/prog.dcfg.json --out-dir d
		ok_quiet
		# the images with blocks, by the base names of their files
		jq -r '.FILE_NAMES[1:] as $n | .PROCESSES[1][1].IMAGES[1:][] |
		    select((.[3].BASIC_BLOCKS // []) | length > 1) | .[3].FILE_NAME_ID as $id |
		    $n[] | select(.[0] == $id) | .[1] | sub(".*/"; "")' p/prog.dcfg.json | sort > want.names
		[ "$(wc -l < want.names)" -ge 2 ]
		ls d | sort | diff -u want.names -
		total=0
		: > got.samples
		for f in d/*; do
			dump "$f"
			# every count fits: P = 1 (gen-pair runs are small)
			grep -qx 'period 1' "$f.dump"
			total=$((total + $(tail -n 1 "$f.dump" | cut -d ' ' -f 3)))
			dump -a "$f"
			cat "$f.dump" >> got.samples
		done
		# the blocks' instructions, COUNT x NUM_INSTRS (INSTR_COUNT may be
		# a few off, as in real files)
		instrs=$(jq '.PROCESSES[1][1].IMAGES as $i | ($i[0] | index("IMAGE_DATA")) as $d |
		    [$i[1:][] | .[$d].BASIC_BLOCKS // empty | . as $b |
		     ($b[0] | index("COUNT")) as $c | ($b[0] | index("NUM_INSTRS")) as $n |
		     $b[1:][] | .[$c] * .[$n]] | add' p/prog.dcfg.json)
		[ "$total" -eq "$instrs" ]
		# address by address: the blocks' count x instructions (dcfg-blocks
		# --list), summed per address
		dcfg-blocks --dcfg p/prog.dcfg.json --list |
		    awk -F '\t' '!/^#/ { s[$2] += $6 * $7 } END { for (a in s) if (s[a] > 0) print a, s[a] }' |
		    sort > want.samples
		sort got.samples | diff -u want.samples -
	done
}
