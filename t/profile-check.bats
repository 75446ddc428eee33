#!/usr/bin/env bats
# t/tools/profile-check.py, the second method that the profile tests trust:
# it must pass a right profile and catch each kind of wrong one. The right
# profiles below are counted by hand from t/data/hello.dcfg.json and
# t/data/stage-hello.stream (thread 1, 17 edges, 46 instructions).
#
# NUM_INSTRS: 4:2 5:1 6:3 7:2 8:2 9:6 (hello-world at 0x400000), 10:5 11:1
# (ld.so at 0x2aaaaaaab000); block 5 heads the loop 5-6-7 (the back edge
# 7->5). The position grows by the source block's NUM_INSTRS at each edge,
# and each edge into a block is an entry starting at the new position:
#   entry  #0 #1 #2 #3 #4 #5 #6 #7 #8 #9 #10 #11 #12 #13 #14 #15
#   block  10  4  5  6  9  7  5  6  9  7   5   6   9   7   8  11
#   start   0  5  7  8 11 17 19 20 23 29  31  32  35  41  43  45
# and the EXIT edge out of 11 ends the thread at 46. A block's count at an
# entry is its entries so far: 6 is entered at #3, #7, #11 (counts 1-3).
#
# A vector's dimensions are the blocks numbered in the order the thread
# first entered them: 10:1 4:2 5:3 6:4 9:5 7:6 8:7 11:8 (#0-#5, #14, #15).

load test_helper

TOOL="$BATS_TEST_DIRNAME/tools/profile-check.py"

check() { capture python3 "$TOOL" "$@"; }

# the right profile's header, trailer and the lines of its images
head_lines() { # SLICE RULE
	echo "# dcfg-profile 1 slice-size=$1 rule=$2 dcfg=$(dcfg_id "$DATA/hello.dcfg.json") process=13723 thread=1"
	echo "P: 1"
	echo "C: sum:dummy Command: dcfg-profile --slice-size $1"
	echo "G: hello-world LowAddress: 0x400000 LoadOffset: 0x0"
	echo "G: /lib64/ld-linux-x86-64.so.2 LowAddress: 0x2aaaaaaab000 LoadOffset: 0x0"
	echo "S: 0x2aaaaaaacc90 1 /lib64/ld-linux-x86-64.so.2 0x2aaaaaaab000 + 0x1c90 # Unknown:0"
}
# every block thread 1 entered, by dimension, with its entries, from the
# table above, from its address to its last instruction's (ADDR_OFFSET + LAST_INSTR_OFFSET:
# 4 is 0x530 + 4, 10 0x1c90 + 10); the
# source lines of SOURCE_DATA: 0x538+16 is line 8, 0x548+8 line 9, 0x550
# line 3; ld.so has none (Unknown:0)
block_lines() {
	cat <<-'EOF'
	Block id: 1 0x2aaaaaaacc90:0x2aaaaaaacc9a static instructions: 5 block count: 1 block size: 15
	Block id: 2 0x400530:0x400534 static instructions: 2 block count: 1 block size: 8
	Block id: 3 0x400538:0x400538 static instructions: 1 block count: 3 block size: 4
	Block id: 4 0x40053c:0x400543 static instructions: 3 block count: 3 block size: 12
	Block id: 5 0x400550:0x40055d static instructions: 6 block count: 3 block size: 14
	Block id: 6 0x400548:0x40054c static instructions: 2 block count: 3 block size: 6
	Block id: 7 0x40054e:0x40054f static instructions: 2 block count: 1 block size: 2
	Block id: 8 0x2aaaaaaacc9f:0x2aaaaaaacc9f static instructions: 1 block count: 1 block size: 1
	End of bb
	EOF
}
LAST="S: 0x2aaaaaaacc9f 1 /lib64/ld-linux-x86-64.so.2 0x2aaaaaaab000 + 0x1c9f # Unknown:0"

# Fixed slices of 20: boundaries at the first entries starting at 20 or
# more (#7, 6's 2nd) and 40 or more (#13, 7's 3rd); slice 0 is #0-#6
# (10:5 4:2 5:1+1 6:3 9:6 7:2 = 20), slice 1 #7-#12 (6:3+3 9:6+6 7:2 5:1
# = 21), slice 2 #13-#15 (7:2 8:2 11:1 = 5), ending at 46; each vector by
# dimension (10 is 1, 4 is 2, ...).
fixed20() {
	head_lines 20 fixed
	cat <<-EOF
	# Slice ending at 20 global 20
	# Unfiltered count 20
	T:1:5 :2:2 :3:2 :4:3 :5:6 :6:2
	S: 0x40053c 2 hello-world 0x400000 + 0x53c # hello-world.c:8
	# Slice ending at 41 global 41
	# Unfiltered count 21
	T:3:1 :4:6 :5:12 :6:2
	S: 0x400548 3 hello-world 0x400000 + 0x548 # hello-world.c:9
	# Slice ending at 46 global 46
	# Unfiltered count 5
	T:6:2 :7:2 :8:1
	$LAST
	Dynamic instruction count 46
	Dynamic unfiltered instruction count 46
	SliceSize: 20
	EOF
	block_lines
}

# Loop-aligned, 20: only entries of 5 (#2 at 7, #6 at 19, #10 at 31) end
# a slice; the first at 20 or more is #10 (5's 3rd, at 31), and none is
# at 40 or more: #0-#9 (31 instructions), #10-#15 (15).
loop20() {
	head_lines 20 loop
	cat <<-EOF
	# Slice ending at 31 global 31
	# Unfiltered count 31
	T:1:5 :2:2 :3:2 :4:6 :5:12 :6:4
	S: 0x400538 3 hello-world 0x400000 + 0x538 # hello-world.c:8
	# Slice ending at 46 global 46
	# Unfiltered count 15
	T:3:1 :4:3 :5:6 :6:2 :7:2 :8:1
	$LAST
	Dynamic instruction count 46
	Dynamic unfiltered instruction count 46
	SliceSize: 20
	EOF
	block_lines
}

# Loop heads of 15: 5 is entered at #2 (7), #6 (19) and #10 (31). LoopPoint's
# rule ends the first slice at the first at 15 or more, #6 (19), and the
# next at 19 + 15 = 34 or more: there is none, so 2 slices, #0-#5 (19) and
# #6-#15 (27: 5:1+1 6:3+3 7:2+2 8:2 9:6+6 11:1), by dimension as above.
# The grid gives one more boundary, at 30 or more: #10 (31).
loop15() {
	head_lines 15 loop
	cat <<-EOF
	# Slice ending at 19 global 19
	# Unfiltered count 19
	T:1:5 :2:2 :3:1 :4:3 :5:6 :6:2
	S: 0x400538 2 hello-world 0x400000 + 0x538 # hello-world.c:8
	# Slice ending at 46 global 46
	# Unfiltered count 27
	T:3:2 :4:6 :5:12 :6:4 :7:2 :8:1
	$LAST
	Dynamic instruction count 46
	Dynamic unfiltered instruction count 46
	SliceSize: 15
	EOF
	block_lines
}

# Fixed 5, ld.so excluded: the grid cuts at #1 (5), #4 (11: 10 and 15
# both), #5 (17), #7 (20), #9 (29, 25 too), #10 (31), #12 (35), #13 (41)
# and #15 (45). Slice #0 holds only 10, of ld.so: empty, joined to the
# next (#0-#3); the last, #15, holds only 11: joined to the one before
# (#13-#15). The T lines add up to 46 - 5 - 1 = 40; 10 and 11 keep their
# dimensions, 1 and 8, though no vector holds them.
excluded5() {
	head_lines 5 fixed
	cat <<-EOF
	# Slice ending at 11 global 11
	# Unfiltered count 11
	T:2:2 :3:1 :4:3
	S: 0x400550 1 hello-world 0x400000 + 0x550 # hello-world.c:3
	# Slice ending at 17 global 17
	# Unfiltered count 6
	T:5:6
	S: 0x400548 1 hello-world 0x400000 + 0x548 # hello-world.c:9
	# Slice ending at 20 global 20
	# Unfiltered count 3
	T:3:1 :6:2
	S: 0x40053c 2 hello-world 0x400000 + 0x53c # hello-world.c:8
	# Slice ending at 29 global 29
	# Unfiltered count 9
	T:4:3 :5:6
	S: 0x400548 2 hello-world 0x400000 + 0x548 # hello-world.c:9
	# Slice ending at 31 global 31
	# Unfiltered count 2
	T:6:2
	S: 0x400538 3 hello-world 0x400000 + 0x538 # hello-world.c:8
	# Slice ending at 35 global 35
	# Unfiltered count 4
	T:3:1 :4:3
	S: 0x400550 3 hello-world 0x400000 + 0x550 # hello-world.c:3
	# Slice ending at 41 global 41
	# Unfiltered count 6
	T:5:6
	S: 0x400548 3 hello-world 0x400000 + 0x548 # hello-world.c:9
	# Slice ending at 46 global 46
	# Unfiltered count 5
	T:6:2 :7:2
	$LAST
	Dynamic instruction count 40
	Dynamic unfiltered instruction count 46
	SliceSize: 5
	EOF
	block_lines
}

S="$DATA/stage-hello.stream"
D="$DATA/hello.dcfg.json"

@test "right profiles pass, silently: fixed, loop-aligned, loop-grid, and with an image excluded" {
	fixed20 > f.bb
	check --slice-size 20 "$D" "$S" f.bb
	[ "$status" -eq 0 ] && [ ! -s stdout ] || { cat stdout stderr; false; }
	loop20 > l.bb
	check --slice-size 20 --loop-aligned "$D" "$S" l.bb
	[ "$status" -eq 0 ] && [ ! -s stdout ] || { cat stdout stderr; false; }
	sed 's/ rule=loop / rule=loop-grid /' l.bb > g.bb
	check --slice-size 20 --loop-grid "$D" "$S" g.bb
	[ "$status" -eq 0 ] && [ ! -s stdout ] || { cat stdout stderr; false; }
	loop15 > l.bb
	check --slice-size 15 --loop-aligned "$D" "$S" l.bb
	[ "$status" -eq 0 ] && [ ! -s stdout ] || { cat stdout stderr; false; }
	excluded5 > x.bb
	for name in ld-linux-x86-64.so.2 /lib64/ld-linux-x86-64.so.2; do
		check --slice-size 5 --exclude-image "$name" "$D" "$S" x.bb
		[ "$status" -eq 0 ] && [ ! -s stdout ] || { cat stdout stderr; false; }
	done
	# the DCFG compressed: the same identity (of its data)
	gzip -c "$D" > hello.dcfg.json.gz
	check --slice-size 20 hello.dcfg.json.gz "$S" f.bb
	[ "$status" -eq 0 ] && [ ! -s stdout ]
}

@test "several profiles in one run: each checked on its own, a wrong one named among right ones" {
	fixed20 > a.bb
	fixed20 | sed 's/^S: 0x40053c 2 /S: 0x40053c 1 /' > b.bb
	fixed20 > c.bb
	check --slice-size 20 "$D" "$S" a.bb c.bb
	[ "$status" -eq 0 ] && [ ! -s stdout ] || { cat stdout stderr; false; }
	check --slice-size 20 "$D" "$S" a.bb b.bb c.bb
	[ "$status" -eq 1 ] || { cat stdout stderr; false; }
	[ "$(cut -d: -f2 stdout | sort -u)" = " b.bb" ]
	# one that cannot be read is an error, whatever the others are
	check --slice-size 20 "$D" "$S" a.bb missing.bb b.bb
	[ "$status" -eq 2 ] && grep -q 'missing.bb' stderr && grep -q 'b.bb:7:' stdout
}

# wrong FILE CHECKER-ARGS... : the checker exits 1 and prints its findings
wrong() {
	local file=$1
	shift
	check "$@" "$D" "$S" "$file"
	[ "$status" -eq 1 ] || { echo "status $status"; cat stdout stderr; return 1; }
}

@test "a marker one execution off: its count-th execution does not start where its slice ends" {
	fixed20 | sed 's/^S: 0x40053c 2 /S: 0x40053c 1 /' > w.bb
	wrong w.bb --slice-size 20
	grep -qx 'profile-check: w.bb:7: # Slice ending at 20, but the start of 0x40053c.s 1-th execution is 8' stdout
	# a marker that never ran that often
	fixed20 | sed 's/^S: 0x40053c 2 /S: 0x40053c 4 /' > w.bb
	wrong w.bb --slice-size 20
	grep -q 'w.bb:10: 0x40053c does not start a block for the 4-th time' stdout
}

@test "a T line that is not the sum between its markers, or is empty" {
	fixed20 | sed 's/^T:3:1 :4:6 :5:12 :6:2$/T:3:1 :4:6 :5:11 :6:2/' > w.bb
	wrong w.bb --slice-size 20
	grep -qx 'profile-check: w.bb:13: T line T:3:1 :4:6 :5:11 :6:2, the entries between its markers give T:3:1 :4:6 :5:12 :6:2' stdout
	# the vector of an excluded image's block, left in
	excluded5 | sed 's/^T:2:2 :3:1 :4:3$/T:1:5 :2:2 :3:1 :4:3/' > w.bb
	wrong w.bb --slice-size 5 --exclude-image ld-linux-x86-64.so.2
	grep -q 'w.bb:9: T line T:1:5 :2:2 :3:1 :4:3, the entries between its markers give T:2:2 :3:1 :4:3$' stdout
	# dimensions numbered by node id, not by first entry: 4 before 10
	fixed20 | sed 's/^T:1:5 :2:2 :3:2 :4:3 :5:6 :6:2$/T:1:2 :2:5 :3:2 :4:3 :5:6 :6:2/' > w.bb
	wrong w.bb --slice-size 20
	grep -q 'w.bb:9: T line T:1:2 :2:5 :3:2 :4:3 :5:6 :6:2, the entries between its markers give T:1:5 :2:2 ' stdout
	# an empty slice not joined: a T line with nothing
	excluded5 | sed '6a\
# Slice ending at 5 global 5\
# Unfiltered count 5\
T\
S: 0x400530 1 hello-world 0x400000 + 0x530 # hello-world.c:7' > w.bb
	wrong w.bb --slice-size 5 --exclude-image ld-linux-x86-64.so.2
	grep -q 'w.bb:9: an empty T line' stdout
	# ids out of order
	fixed20 | sed 's/^T:6:2 :7:2 :8:1$/T:7:2 :6:2 :8:1/' > w.bb
	wrong w.bb --slice-size 20
	grep -q "w.bb:17: T line's ids are not ascending" stdout
}

@test "boundaries off the rule (grid or LoopPoint's) are caught even when the slices are summed right" {
	# cut at #6 (19), one entry before the grid's #7 (20), with markers,
	# comment lines and sums right for that cut
	head_lines 20 fixed > w.bb
	cat >> w.bb <<-EOF
	# Slice ending at 19 global 19
	# Unfiltered count 19
	T:1:5 :2:2 :3:1 :4:3 :5:6 :6:2
	S: 0x400538 2 hello-world 0x400000 + 0x538 # hello-world.c:8
	# Slice ending at 41 global 41
	# Unfiltered count 22
	T:3:2 :4:6 :5:12 :6:2
	S: 0x400548 3 hello-world 0x400000 + 0x548 # hello-world.c:9
	# Slice ending at 46 global 46
	# Unfiltered count 5
	T:6:2 :7:2 :8:1
	$LAST
	Dynamic instruction count 46
	Dynamic unfiltered instruction count 46
	SliceSize: 20
	EOF
	block_lines >> w.bb
	wrong w.bb --slice-size 20
	[ "$(cat stdout)" = "profile-check: w.bb:10: boundary 1 is 0x400538 2 (start 19), the grid rule gives 0x40053c 2 (start 20)" ]
	# the fixed profile is not loop-aligned: 6 heads no loop
	fixed20 | sed 's/rule=fixed/rule=loop-grid/' > w.bb
	wrong w.bb --slice-size 20 --loop-grid
	grep -qx 'profile-check: w.bb:10: boundary 1 is 0x40053c 2 (start 20), the grid rule gives 0x400538 3 (start 31)' stdout
	# with --loop-image naming an image without loops, no boundary at all
	loop20 > l.bb
	wrong l.bb --slice-size 20 --loop-aligned --loop-image ld-linux-x86-64.so.2
	grep -qx "profile-check: l.bb:10: boundary 1 is 0x400538 3 (start 31), LoopPoint's rule gives no more" stdout
	# LoopPoint's slices are not the grid's, nor the grid's LoopPoint's
	loop15 | sed 's/ rule=loop / rule=loop-grid /' > w.bb
	wrong w.bb --slice-size 15 --loop-grid
	grep -qx 'profile-check: w.bb:[0-9]*: boundary 2 is ?, the grid rule gives 0x400538 3 (start 31)' stdout
	head_lines 15 loop > w.bb
	cat >> w.bb <<-EOF
	# Slice ending at 19 global 19
	# Unfiltered count 19
	T:1:5 :2:2 :3:1 :4:3 :5:6 :6:2
	S: 0x400538 2 hello-world 0x400000 + 0x538 # hello-world.c:8
	# Slice ending at 31 global 31
	# Unfiltered count 12
	T:3:1 :4:3 :5:6 :6:2
	S: 0x400538 3 hello-world 0x400000 + 0x538 # hello-world.c:8
	# Slice ending at 46 global 46
	# Unfiltered count 15
	T:3:1 :4:3 :5:6 :6:2 :7:2 :8:1
	$LAST
	Dynamic instruction count 46
	Dynamic unfiltered instruction count 46
	SliceSize: 15
	EOF
	block_lines >> w.bb
	wrong w.bb --slice-size 15 --loop-aligned
	grep -qx "profile-check: w.bb:14: boundary 2 is 0x400538 3 (start 31), LoopPoint's rule gives no more" stdout
	sed 's/ rule=loop / rule=loop-grid /' w.bb > g.bb
	check --slice-size 15 --loop-grid "$D" "$S" g.bb
	[ "$status" -eq 0 ] && [ ! -s stdout ] || { cat stdout stderr; false; }
	# an empty slice that should have been joined is a boundary too many
	excluded5 | sed '6a\
# Slice ending at 5 global 5\
# Unfiltered count 5\
T:1:5\
S: 0x400530 1 hello-world 0x400000 + 0x530 # hello-world.c:7' | sed 's/^# Unfiltered count 11$/# Unfiltered count 6/' > w.bb
	wrong w.bb --slice-size 5 --exclude-image ld-linux-x86-64.so.2
	grep -q 'w.bb:10: boundary 1 is 0x400530 1 (start 5), the grid rule gives 0x400550 1 (start 11)' stdout
}

@test "the first marker is the first entry with count 1, the last the thread's last entry" {
	fixed20 | sed '6s/.*/S: 0x400530 1 hello-world 0x400000 + 0x530 # hello-world.c:7/' > w.bb
	wrong w.bb --slice-size 20
	grep -q 'w.bb:6: the first marker is entry 2 of the thread, not its first entry' stdout
	# LoopPoint's end of the last block, or the last boundary again
	fixed20 | sed "s|^$LAST\$|S: 0x400548 3 hello-world 0x400000 + 0x548 # hello-world.c:9|" > w.bb
	wrong w.bb --slice-size 20
	grep -q "w.bb:18: the last marker should be the thread's last entry, 0x2aaaaaaacc9f 1" stdout
}

@test "a marker's image, offset and source line are checked" {
	fixed20 | sed 's/^S: 0x40053c 2 hello-world 0x400000 + 0x53c/S: 0x40053c 2 hello-world 0x400000 + 0x53d/' > w.bb
	wrong w.bb --slice-size 20
	grep -qx 'profile-check: w.bb:10: 0x40053c is hello-world 0x400000 + 0x53c, the line says hello-world 0x400000 + 0x53d' stdout
	fixed20 | sed 's/^S: 0x40053c 2 hello-world 0x400000 + 0x53c # hello-world.c:8/S: 0x40053c 2 hello-world 0x400000 + 0x53c # hello-world.c:9/' > w.bb
	wrong w.bb --slice-size 20
	grep -qx 'profile-check: w.bb:10: source hello-world.c:9, expected hello-world.c:8' stdout
	fixed20 | sed 's|^S: 0x2aaaaaaacc90 1 .*|S: 0x2aaaaaaacc90 1 ld-linux-x86-64.so.2 0x2aaaaaaab000 + 0x1c90 # Unknown:0|' > w.bb
	wrong w.bb --slice-size 20
	grep -q 'w.bb:6: 0x2aaaaaaacc90 is /lib64/ld-linux-x86-64.so.2 0x2aaaaaaab000 + 0x1c90, the line says ld-linux' stdout
	fixed20 | sed 's|^S: 0x2aaaaaaacc90 1 .*|M: 0x2aaaaaaacc90 1 no_image 0|' > w.bb
	wrong w.bb --slice-size 20
	grep -q 'w.bb:6: M: for 0x2aaaaaaacc90, which is in image /lib64/ld-linux-x86-64.so.2' stdout
	fixed20 | sed '/^G: hello-world/d' > w.bb
	wrong w.bb --slice-size 20
	grep -q 'w.bb:4: G: lines name the images' stdout
}

@test "the trailer: totals, slice size, header, and a Block id line for every block" {
	fixed20 | sed 's/^Dynamic instruction count 46/Dynamic instruction count 45/' > w.bb
	wrong w.bb --slice-size 20
	grep -q 'w.bb:19: Dynamic instruction count 45: the T lines add up to 46' stdout
	excluded5 | sed 's/^Dynamic unfiltered instruction count 46/Dynamic unfiltered instruction count 40/' > w.bb
	wrong w.bb --slice-size 5 --exclude-image ld-linux-x86-64.so.2
	grep -q 'Dynamic unfiltered instruction count 40, expected 46' stdout
	fixed20 | sed 's/^SliceSize: 20/SliceSize: 10/' > w.bb
	wrong w.bb --slice-size 20
	grep -q 'w.bb:21: SliceSize: 10, expected 20' stdout
	fixed20 | sed '/^Block id: 4 /s/block count: 3/block count: 2/' > w.bb
	wrong w.bb --slice-size 20
	grep -q "w.bb:25: 'Block id: 4 0x40053c:0x400543 static instructions: 3 block count: 2 block size: 12', expected 'Block id: 4 0x40053c:0x400543 static instructions: 3 block count: 3 block size: 12'" stdout
	# a block the thread never entered has no line
	fixed20 | sed '/^End of bb/i\
Block id: 9 0x400500:0x400504 static instructions: 2 block count: 0 block size: 6' > w.bb
	wrong w.bb --slice-size 20
	grep -q "w.bb:30: 'Block id: 9 0x400500:.*', expected None" stdout
	# by node id, not by dimension
	fixed20 | sed 's/^Block id: 1 0x2aaaaaaacc90:/Block id: 10 0x2aaaaaaacc90:/' > w.bb
	wrong w.bb --slice-size 20
	grep -q "w.bb:22: 'Block id: 10 0x2aaaaaaacc90:.*', expected 'Block id: 1 0x2aaaaaaacc90:" stdout
	fixed20 | sed '/^Block id: 4 /d' > w.bb
	wrong w.bb --slice-size 20
	grep -q 'w.bb:10: no Block id line covers the marker.s PC 0x40053c' stdout
	fixed20 | sed '1s/process=13723/process=13724/' > w.bb
	check --slice-size 20 "$D" "$S" w.bb
	[ "$status" -eq 2 ] && grep -q 'process 13724 is not in the DCFG' stderr
	fixed20 | sed '1s/rule=fixed/rule=loop/' > w.bb
	wrong w.bb --slice-size 20
	grep -q 'w.bb:1: header: rule=loop, expected fixed' stdout
	fixed20 | sed '1s/dcfg=[0-9a-f]*:/dcfg=00000000:/' > w.bb
	wrong w.bb --slice-size 20
	grep -q 'w.bb:1: header: dcfg=00000000:' stdout
	fixed20 | sed '/^End of bb/d' > w.bb
	wrong w.bb --slice-size 20
	grep -q 'layout: the file ends where End of bb should be' stdout
}

@test "--none TID: a thread whose blocks are all excluded should have no profile" {
	check --none 1 --exclude-image hello-world --exclude-image ld-linux-x86-64.so.2 "$D" "$S"
	[ "$status" -eq 0 ] && [ ! -s stdout ]
	# thread 1 enters 14 blocks of hello-world (#1-#14 in the table above)
	check --none 1 --exclude-image ld-linux-x86-64.so.2 "$D" "$S"
	[ "$status" -eq 1 ]
	grep -qx "profile-check: $S: thread 1 enters 14 blocks outside the excluded images: it should have a profile" stdout
}

@test "two blocks that ran at one address: a marker counts the PC's executions, both blocks' entries" {
	# block 11 moved to 10's address (the format allows two blocks at one
	# address when an image is unloaded and another loaded there): the
	# thread's last entry, of 11, is the 2nd execution of 0x2aaaaaaacc90
	# (10 ran once before it, #14): "... 2", not 11's own count "... 1"
	sed 's/\[ 11, "0x1c9f", 1, 1, 0, 2 \]/[ 11, "0x1c90", 1, 1, 0, 2 ]/' "$D" > dup.dcfg.json
	right() {
		fixed20 | sed "s|^$LAST\$|S: 0x2aaaaaaacc90 $1 /lib64/ld-linux-x86-64.so.2 0x2aaaaaaab000 + 0x1c90 # Unknown:0|;
		    s|^Block id: 8 0x2aaaaaaacc9f:0x2aaaaaaacc9f |Block id: 8 0x2aaaaaaacc90:0x2aaaaaaacc90 |;
		    1s/dcfg=[^ ]*/dcfg=$(dcfg_id dup.dcfg.json)/"
	}
	right 2 > r.bb
	check --slice-size 20 dup.dcfg.json "$S" r.bb
	[ "$status" -eq 0 ] && [ ! -s stdout ] || { cat stdout stderr; false; }
	right 1 > w.bb
	check --slice-size 20 dup.dcfg.json "$S" w.bb
	[ "$status" -eq 1 ]
	grep -qx "profile-check: w.bb:18: the last marker should be the thread's last entry, 0x2aaaaaaacc90 2" stdout
}

@test "a marker PC inside another block that ran (after its first instruction, at or before its last): a simulator's count of it is not known" {
	# block 5 given 8 bytes, its last instruction at offset 4: 0x40053c,
	# 6's start (NUM_INSTRS stays 1, so that no position moves).
	# Executions of 5 run the instruction at 0x40053c too
	sed 's/\[ 5, "0x538", 4, 1, 0, 7 \]/[ 5, "0x538", 8, 1, 4, 7 ]/' "$D" > in.dcfg.json
	grown() {
		fixed20 | sed "s|^Block id: 3 0x400538:0x400538 static instructions: 1 block count: 3 block size: 4|Block id: 3 0x400538:$1 static instructions: 1 block count: 3 block size: 8|;
		    1s/dcfg=[^ ]*/dcfg=$(dcfg_id "$2")/"
	}
	grown 0x40053c in.dcfg.json > w.bb
	check --slice-size 20 in.dcfg.json "$S" w.bb
	[ "$status" -eq 1 ]
	[ "$(cat stdout)" = "profile-check: w.bb:10: 0x40053c is inside block 5, which ran: a simulator counts it there too" ]
	# its last instruction at offset 0 (one 8-byte instruction): 0x40053c
	# is no instruction of 5, and the profile is right
	sed 's/\[ 5, "0x538", 4, 1, 0, 7 \]/[ 5, "0x538", 8, 1, 0, 7 ]/' "$D" > one.dcfg.json
	grown 0x400538 one.dcfg.json > r.bb
	check --slice-size 20 one.dcfg.json "$S" r.bb
	[ "$status" -eq 0 ] && [ ! -s stdout ] || { cat stdout stderr; false; }
}

@test "an image without a name is no image to a profile: M: markers, no G: line" {
	# hello-world's FILE_NAME_ID taken out
	sed 's/{ "FILE_NAME_ID" : 1,/{/' "$D" > anon.dcfg.json
	fixed20 | sed "1s/dcfg=[^ ]*/dcfg=$(dcfg_id anon.dcfg.json)/" > w.bb
	check --slice-size 20 anon.dcfg.json "$S" w.bb
	[ "$status" -eq 1 ]
	grep -q 'w.bb:4: G: lines name the images' stdout
	grep -qx 'profile-check: w.bb:10: S: for 0x40053c, which is in an image without a name: M: expected' stdout
	# with M: lines and one G: line, right
	fixed20 | sed "1s/dcfg=[^ ]*/dcfg=$(dcfg_id anon.dcfg.json)/; /^G: hello-world/d;
	    s/^S: \(0x4[0-9a-f]*\) \([0-9]*\) hello-world .*/M: \1 \2 no_image 0/" > r.bb
	check --slice-size 20 anon.dcfg.json "$S" r.bb
	[ "$status" -eq 0 ] && [ ! -s stdout ] || { cat stdout stderr; false; }
	# and the process asked for with -p
	check --slice-size 20 -p 13724 anon.dcfg.json "$S" r.bb
	grep -qx 'profile-check: r.bb:1: process 13723, -p asks for 13724' stdout
}
