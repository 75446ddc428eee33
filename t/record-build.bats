#!/usr/bin/env bats
# dcfg_record_build() (lib/record/record.h) on synthetic spools written by
# t/tools/spool-gen.py, without QEMU, through t/tools/record-build. The
# expected blocks, edges and counts were worked out by hand from the code
# listed in spool-gen.py's docstring:
#
# Blocks (node: address, instructions, bytes; executions). TB0 is cut at
# 0x401005, where TB1 (the loop) starts, and TB4 at the rep movsb, where
# each repeat's TB5 starts:
#    4 A 0x401000 1  5  1     10 J 0x401018 2  7  2 (t0 1, t1 1)
#    5 B 0x401005 2  5  3     11 E 0x40101f 1  2  2 (t0 1, t1 1)
#    6 K 0x40100a 1  5  1     12 T 0x401021 1  2  1
#    7 C 0x40100f 1  3  1     13 F 0x401100 2  2  1
#    8 R 0x401012 1  2  4     14 H 0x401200 2  3  2
#    9 S 0x401014 2  4  2     15 L 0x500000 2  5  2 (the second image)
# Thread 0: A B (B B: the loop taken twice) K F C R (R R R: three repeats)
# S J L E: 22 instructions. Thread 1: S, a signal to H, back to J, L, E,
# a signal to H again, back to T: 12 instructions.

load test_helper

gen() { python3 "$BATS_TEST_DIRNAME/tools/spool-gen.py" "$@"; }

build_ok() {
	gen spool
	capture record-build "$@" --program /nonexistent/prog spool p.dcfg.json.bz2 p.trace.json.bz2
	[ "$status" -eq 0 ]
	[ ! -s stderr ]
}

@test "record-build: the DCFG and its trace pass dcfg-check --strict" {
	build_ok
	dcfg_check --strict p.dcfg.json.bz2 p.trace.json.bz2
	[ "$status" -eq 0 ]
	grep -q '^0 errors, 0 warnings$' stdout
	# only the temporaries' names are gone from the spool; it stays for the caller
	[ "$(ls spool | tr '\n' ' ')" = "images process tbs thread.0 thread.1 " ]
}

@test "record-build: each thread's edges, in order, with their kinds" {
	build_ok
	dcfg-expand p.trace.json.bz2 | dcfg-edges --dcfg p.dcfg.json.bz2 |
	    awk -F '\t' '/^# thread/ { print; next } /^#/ { next } { print $2, $3, $4 }' > got
	cat > want <<-'END'
	# thread 0
	1 4 ENTRY
	4 5 FALL_THROUGH
	5 5 DIRECT_CONDITIONAL_BRANCH
	5 5 DIRECT_CONDITIONAL_BRANCH
	5 6 FALL_THROUGH
	6 13 DIRECT_CALL
	13 7 RETURN
	7 8 FALL_THROUGH
	8 8 REP
	8 8 REP
	8 8 REP
	8 9 FALL_THROUGH
	9 10 SYSTEM_CALL_BYPASS
	10 15 DIRECT_UNCONDITIONAL_BRANCH
	15 11 INDIRECT_UNCONDITIONAL_BRANCH
	11 2 EXIT
	# thread 1
	1 9 ENTRY
	9 14 CONTEXT_CHANGE
	14 10 CONTEXT_CHANGE_RETURN
	10 15 DIRECT_UNCONDITIONAL_BRANCH
	15 11 INDIRECT_UNCONDITIONAL_BRANCH
	11 14 CONTEXT_CHANGE
	14 12 CONTEXT_CHANGE_RETURN
	12 2 EXIT
	END
	diff want got
}

@test "record-build: blocks, their sizes and counts; instructions per thread" {
	build_ok
	dcfg-expand p.trace.json.bz2 | dcfg-blocks --dcfg p.dcfg.json.bz2 |
	    awk -F '\t' '!/^#/ && $2 ~ /^[0-9]+$/ { print $2, $3, $4, $6, $7 }' | sort -n | uniq -c |
	    awk '{ print $2, $3, $4, $5, $6 }' > got
	cat > want <<-'END'
	4 0x401000 /nonexistent/prog 5 1
	5 0x401005 /nonexistent/prog 5 2
	6 0x40100a /nonexistent/prog 5 1
	7 0x40100f /nonexistent/prog 3 1
	8 0x401012 /nonexistent/prog 2 1
	9 0x401014 /nonexistent/prog 4 2
	10 0x401018 /nonexistent/prog 7 2
	11 0x40101f /nonexistent/prog 2 1
	12 0x401021 /nonexistent/prog 2 1
	13 0x401100 /nonexistent/prog 2 2
	14 0x401200 /nonexistent/prog 3 2
	15 0x500000 /nonexistent/libfake.so 5 2
	END
	diff want got
	dcfg_count --dcfg p.dcfg.json.bz2 --from-dcfg --by block
	[ "$status" -eq 0 ]
	awk -F '\t' '!/^#/ { print $1, $2 }' stdout | sort -n | tr '\n' ' ' > got
	[ "$(cat got)" = "4 1 5 3 6 1 7 1 8 4 9 2 10 2 11 2 12 1 13 1 14 2 15 2 " ]
	dcfg_info p.dcfg.json.bz2
	grep -q '^  instructions per thread: 22 12$' stdout
	grep -q '^  basic blocks: 12$' stdout
	# 13 edges of thread 0, 6 more of thread 1, one CALL_BYPASS
	grep -q '^  edges: 20$' stdout
	grep -q '^    image 1: load 0x400000 size 8192 file /nonexistent/prog$' stdout
	grep -q '^    image 2: load 0x500000 size 4096 file /nonexistent/libfake.so$' stdout
}

@test "record-build: the trace's edge counts are the DCFG's COUNT_PER_THREAD; CALL_BYPASS is 0" {
	build_ok
	for t in 0 1; do
		dcfg-expand -t $t p.trace.json.bz2 | dcfg-count --dcfg p.dcfg.json.bz2 --by edge |
		    awk -F '\t' '!/^#/ { print $1, $2 }' | sort > trace.$t
	done
	bzip2 -dc p.dcfg.json.bz2 | python3 -c '
import json, sys
d = json.load(sys.stdin)
kinds = {r[0]: r[1] for r in d["EDGE_TYPES"][1:]}
edges = d["PROCESSES"][1][1]["EDGES"][1:]
for t in (0, 1):
    with open("dcfg.%d" % t, "w") as f:
        for e in sorted(edges):
            if e[4][t]:
                f.write("%d %d\n" % (e[0], e[4][t]))
print(" ".join("%d>%d:%s" % (e[1], e[2], str(e[4])) for e in edges if kinds[e[3]] == "CALL_BYPASS"))
' > bypass
	sort dcfg.0 | diff - trace.0
	sort dcfg.1 | diff - trace.1
	# the call block K (6) to its return site C (7), never taken
	[ "$(cat bypass)" = "6>7:[0, 0]" ]
}

@test "record-build: --chunk cuts each thread's trace after that many instructions" {
	gen spool
	capture record-build --chunk 5 spool p.dcfg.json.bz2 p.trace.json.bz2
	[ "$status" -eq 0 ]
	dcfg-expand --list p.trace.json.bz2 | cut -f 2-6 > got
	# a chunk ends at the edge that brings it to 5 instructions or more (sources' instructions);
	# thread 1 starts at its header's 100 preceding instructions
	cat > want <<-'END'
	tid	chunk	preceding_instr_count	instr_count	edge_count
	0	0	0	5	4
	0	1	5	5	3
	0	2	10	5	5
	0	3	15	6	3
	0	4	21	1	1
	1	0	100	6	4
	1	1	106	5	3
	1	2	111	1	1
	END
	diff want got
	dcfg_check --strict p.dcfg.json.bz2 p.trace.json.bz2
	[ "$status" -eq 0 ]
}

@test "record-build: the program's image is IMAGE_ID 1 only when named; no trace without its path" {
	gen spool
	capture record-build spool p.dcfg.json.bz2
	[ "$status" -eq 0 ]
	[ ! -e p.trace.json.bz2 ]
	dcfg_info p.dcfg.json.bz2
	# without --program the images keep the spool's order: the library was found first
	grep -q '^    image 1: load 0x500000 size 4096 file /nonexistent/libfake.so$' stdout
	dcfg_check --strict p.dcfg.json.bz2
	[ "$status" -eq 0 ]
}

@test "record-build: progress counts the thread files' bytes, on each pass" {
	gen spool
	capture record-build --progress spool p.dcfg.json.bz2 p.trace.json.bz2
	[ "$status" -eq 0 ]
	# thread.0 is 42 bytes (16 of header, 13 records of 2 bytes), thread.1 32 (8 records):
	# read once to count, then once for each of the trace encoder's first two passes
	# (the third reads back the second's text)
	[ "$(tail -n 1 stderr)" = "progress 222 222" ]
	grep -q '^progress 74 222$' stderr
	# the encoder's spill, unlinked once open, leaves nothing in the spool
	[ -z "$(ls -A spool | grep -v -x -e complete -e images -e process -e tbs -e 'thread\.[0-9]*')" ]
	capture record-build --progress spool p.dcfg.json.bz2
	[ "$(tail -n 1 stderr)" = "progress 74 74" ]
}

@test "record-build: the trace given to the encoder edge by edge is the one dcfg-encode writes from its text" {
	gen spool
	for chunk in 0 5 7; do
		capture record-build --chunk "$chunk" spool p.dcfg.json.bz2 p.trace.json.bz2
		[ "$status" -eq 0 ]
		dcfg-expand --chunks p.trace.json.bz2 > stream
		grep -q '^# chunk ' stream
		dcfg-encode --dcfg p.dcfg.json.bz2 -o again.json stream
		bunzip2 -c p.trace.json.bz2 > direct.json
		cmp direct.json again.json
	done
}

# bad_spool KIND MESSAGE: the error, exit 2, and neither output left (an old one kept).
bad_spool() {
	gen spool --bad "$1"
	echo old > p.dcfg.json.bz2
	capture record-build spool p.dcfg.json.bz2 p.trace.json.bz2
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "record-build: $2" ]
	[ "$(cat p.dcfg.json.bz2)" = old ]
	[ ! -e p.trace.json.bz2 ]
	[ "$(ls | grep -c '\.bz2')" -eq 1 ]
	[ "$(ls spool | tr '\n' ' ')" = "images process tbs thread.0 thread.1 " ]
}

@test "record-build: a thread file cut short names its file and the record's offset" {
	# thread.0's records: 12 of 2 bytes from byte 16, then (0, 10) at 38 and the end (0, 0)
	# at 40; 3 bytes fewer leave only 38's HITS
	bad_spool truncated "spool/thread.0: the record at byte 38: cut short"
}

@test "record-build: a spool without \"complete\" is refused" {
	bad_spool incomplete 'spool/process: no "complete" line: the recording did not finish'
}

@test "record-build: a NEXT past the tbs table is refused" {
	# thread.1: 7 records from byte 16; the end record at 30 replaced by NEXT 13 (12 tbs)
	bad_spool next-past "spool/thread.1: the record at byte 30: a block id past the tbs table"
}

@test "record-build: an absurd instruction count in tbs is refused" {
	# records of 16 bytes, the lengths and the last instruction: 21, 20, 22: TB3 at 63
	bad_spool absurd-insns "spool/tbs: the record at byte 63: its instruction count is 0 or absurd"
}

@test "record-build: a tbs record cut short is refused" {
	# TB11, the last, at 223 (the sizes 21 20 22 19 20 19 20 23 20 19 20), 3 bytes short
	bad_spool garbled-tbs "spool/tbs: the record at byte 223: cut short"
}

@test "record-build: a process of no thread is refused, not walked (found by fuzz-spool)" {
	gen spool
	sed -i 's/^threads 2$/threads 0/' spool/process
	capture record-build spool p.dcfg.json.bz2 p.trace.json.bz2
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "record-build: spool/process:3:1: the thread count must be a number from 1 to 65536" ]
	[ "$(ls | grep -c '\.bz2')" -eq 0 ]
}

@test "record-build: an image path that names a FIFO is not opened for reading: no hang, no symbols" {
	gen spool
	mkfifo fifo
	sed -i "s|/nonexistent/prog|$PWD/fifo|" spool/images
	capture timeout 20 record-build --program "$PWD/fifo" spool p.dcfg.json.bz2 p.trace.json.bz2
	[ "$status" -eq 0 ]
	bzip2 -dc p.dcfg.json.bz2 > p.json
	# image 1 is the FIFO's, named, with blocks and without SYMBOLS
	[ "$(jq -r '.PROCESSES[1][1].IMAGES[1][3] | keys | join(" ")' p.json)" = "BASIC_BLOCKS FILE_NAME_ID ROUTINES" ]
}
