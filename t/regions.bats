#!/usr/bin/env bats
# dcfg-regions, as a user runs it after SimPoint: a per-thread profile and
# SimPoint's t.simpoints, t.weights and t.labels in, regions out. SimPoint
# is not installed here, so its answer is written by hand, and every
# expected region is worked out by hand from the profile below (the
# comments show the arithmetic), never taken from the program.
#
# t/data/regions/prog.T.3.bb, thread 3, five slices (S = the marker
# before slice i, "block x count"; the T lines give instructions, a
# block's executions are them over its static instructions: block 1 has
# 4, block 2 has 5, block 3 has 2, block 4 has 3):
#
#   marker 0  S: 0x401000 count 1  (block 1)         prog.c:10
#   slice 0   T:1:8 :2:10 :3:2     20 instrs  b1 x2, b2 x2, b3 x1
#   marker 1  S: 0x401010 count 3  (block 2)         prog.c:20
#   slice 1   T:1:4 :2:10 :4:9     23 instrs  b1 x1, b2 x2, b4 x3
#   marker 2  S: 0x401000 count 4  (block 1)
#   slice 2   T:1:12 :3:8          20 instrs  b1 x3, b3 x4
#   marker 3  S: 0x7f0000001000 count 4 (block 4, "/lib/lib c,x.so" at
#             0x7f0000000000, offset 0x1000)     Unknown:0
#   slice 3   T:2:5 :4:15          20 instrs  b2 x1, b4 x5
#   marker 4  S: 0x401010 count 6  (block 2)
#   slice 4   T:1:4 :2:5 :3:2      11 instrs  b1 x1, b2 x1, b3 x1
#   marker 5  S: 0x401020 count 6  (block 3, the thread's last entry)
#
# 94 instructions in all; before slices 0..4: 0, 20, 43, 63, 83.
# t.labels: slices 0..4 in clusters 1 0 1 2 0; t.simpoints: cluster 0 is
# slice 1, cluster 1 slice 2, cluster 2 slice 3; weights 0.4 0.4 0.2.

load test_helper

R="$DATA/regions"

dcfg_regions() { capture dcfg-regions "$@"; }

# here: the hand-made files, named as SimPoint and dcfg-profile name them
here() {
	cp "$R"/prog.T.3.bb "$R"/t.simpoints "$R"/t.weights "$R"/t.labels "$R"/prog.dcfg.json .
}

HEADER='# comment,thread-id,region-id,start-pc, start-image-name, start-image-offset, start-pc-count,end-pc, end-image-name, end-image-offset, end-pc-count,end-pc-relative-count, region-length, region-weight, region-multiplier, region-type'

@test "the region CSV, worked out by hand: markers, counts, lengths, weights, multipliers, warmups" {
	here
	dcfg_regions -s t.simpoints -w t.weights -l t.labels --warmup-factor 2 prog.T.3.bb
	# Region 1 = cluster 0, slice 1: from marker 1 to marker 2. Icount 20,
	# length 23. The end PC 0x401000 (block 1) runs once in slice 1 (4/4),
	# and its marker's own execution makes 2: 4 = 3 before the region + 2.
	# Cluster 0 holds slices 1 and 4: 23 + 11 = 34 instructions; multiplier
	# 34 / 94 x 5 slices = 1.8085 -> 1.809.
	# Region 2 = cluster 1, slice 2: markers 2 to 3; icount 43, length 20;
	# block 4 does not run in slice 2: relative 0 + 1 = 1. Cluster 1 = slices
	# 0 and 2, 40 instructions: 40 / 94 x 5 = 2.1277 -> 2.128.
	# Region 3 = cluster 2, slice 3: markers 3 to 4; icount 63, length 20;
	# block 2 once in slice 3 (5/5): relative 2. 20 / 94 x 5 = 1.0638 -> 1.064.
	# Warmups of 2 slices, ids region + max cluster (2) + 2 = 5, 6, 7:
	# region 1: only slice 0 is before it: from the run's start (count 0) to
	# marker 1; block 2 runs twice in slice 0 (10/5), relative 3; 20 instrs.
	# region 2: slices 0-1, from the start to marker 2: block 1 runs 8/4 + 4/4
	# = 3 times, relative 4; 43 instrs. region 3: slices 1-2, markers 1 to 3:
	# block 4 runs 9/3 = 3 times, relative 4; 23 + 20 = 43 instrs, icount 20.
	expect_stdout <<-EOF
		# Regions based on: prog.T.3.bb t.simpoints t.weights t.labels
		$HEADER

		# RegionId = 1 Slice = 1 Icount = 20 Length = 23 Weight = 0.40000 Multiplier = 1.809 ClusterSlicecount = 2 ClusterIcount = 34
		#Start: pc : 0x401010 image: prog offset: 0x1010 absolute_count: 3  source-info: prog.c:20
		#End: pc : 0x401000 image: prog offset: 0x1000 absolute_count: 4  relative_count: 2 source-info: prog.c:10
		cluster 0 from slice 1,3,1,0x401010,prog,0x1010,3,0x401000,prog,0x1000,4,2,23,0.40000,1.809,simulation

		# RegionId = 2 Slice = 2 Icount = 43 Length = 20 Weight = 0.40000 Multiplier = 2.128 ClusterSlicecount = 2 ClusterIcount = 40
		#Start: pc : 0x401000 image: prog offset: 0x1000 absolute_count: 4  source-info: prog.c:10
		#End: pc : 0x7f0000001000 image: lib\x20c\x2cx.so offset: 0x1000 absolute_count: 4  relative_count: 1 source-info: Unknown:0
		cluster 1 from slice 2,3,2,0x401000,prog,0x1000,4,0x7f0000001000,lib\x20c\x2cx.so,0x1000,4,1,20,0.40000,2.128,simulation

		# RegionId = 3 Slice = 3 Icount = 63 Length = 20 Weight = 0.20000 Multiplier = 1.064 ClusterSlicecount = 1 ClusterIcount = 20
		#Start: pc : 0x7f0000001000 image: lib\x20c\x2cx.so offset: 0x1000 absolute_count: 4  source-info: Unknown:0
		#End: pc : 0x401010 image: prog offset: 0x1010 absolute_count: 6  relative_count: 2 source-info: prog.c:20
		cluster 2 from slice 3,3,3,0x7f0000001000,lib\x20c\x2cx.so,0x1000,4,0x401010,prog,0x1010,6,2,20,0.20000,1.064,simulation

		# RegionId = 5 Slice = 0 Icount = 0 Length = 20 WarmupFactor = 1
		#Start: pc : 0x401000 image: prog offset: 0x1000 absolute_count: 0  source-info: prog.c:10
		#End: pc : 0x401010 image: prog offset: 0x1010 absolute_count: 3  relative_count: 3 source-info: prog.c:20
		Warmup for regionid 1,3,5,0x401000,prog,0x1000,0,0x401010,prog,0x1010,3,3,20,0.00000,0.000,warmup:1

		# RegionId = 6 Slice = 0 Icount = 0 Length = 43 WarmupFactor = 2
		#Start: pc : 0x401000 image: prog offset: 0x1000 absolute_count: 0  source-info: prog.c:10
		#End: pc : 0x401000 image: prog offset: 0x1000 absolute_count: 4  relative_count: 4 source-info: prog.c:10
		Warmup for regionid 2,3,6,0x401000,prog,0x1000,0,0x401000,prog,0x1000,4,4,43,0.00000,0.000,warmup:2

		# RegionId = 7 Slice = 1 Icount = 20 Length = 43 WarmupFactor = 2
		#Start: pc : 0x401010 image: prog offset: 0x1010 absolute_count: 3  source-info: prog.c:20
		#End: pc : 0x7f0000001000 image: lib\x20c\x2cx.so offset: 0x1000 absolute_count: 4  relative_count: 4 source-info: Unknown:0
		Warmup for regionid 3,3,7,0x401010,prog,0x1010,3,0x7f0000001000,lib\x20c\x2cx.so,0x1000,4,4,43,0.00000,0.000,warmup:3

		# Total instructions in 3 regions = 63
		# Total instructions in workload = 94
		# Total slices in workload = 5
	EOF
}

# fields N < CSV: field N (from 0) of each data line
fields() {
	grep -v '^#' | grep . | cut -d, -f"$1"
}

@test "every rule of the spec's Region CSV: 16 fields, no space or comma inside one, the header, the comment lines" {
	here
	dcfg_regions -s t.simpoints -w t.weights -l t.labels --warmup-factor 2 prog.T.3.bb
	[ "$status" -eq 0 ]
	# the header line, exactly
	grep -qxF "$HEADER" stdout
	# 16 comma-separated fields on every data line; none but the comment
	# (field 0: "cluster C from slice S", "Warmup for regionid R") holds a space
	grep -v '^#' stdout | grep . > data
	[ "$(wc -l < data)" -eq 6 ]
	awk -F, 'NF != 16 { print "fields: " NF ": " $0; bad = 1 }
	    { for (i = 2; i <= NF; i++) if ($i ~ /[ \t]/) { print "space in field " i - 1; bad = 1 } }
	    END { exit bad }' data
	# thread id from the profile's P: line, region ids cluster + 1, warmups after
	[ "$(fields 2 < stdout | tr '\n' ' ')" = "3 3 3 3 3 3 " ]
	[ "$(fields 3 < stdout | tr '\n' ' ')" = "1 2 3 5 6 7 " ]
	# image names are basenames, offsets pc - image low (0x401010 - 0x400000)
	[ "$(fields 5,6 < stdout | head -n 1)" = "prog,0x1010" ]
	# types: simulation, then warmup:REGION
	[ "$(fields 16 < stdout | tr '\n' ' ')" = "simulation simulation simulation warmup:1 warmup:2 warmup:3 " ]
	# weights from t.weights, every one <= 1; warmups weigh 0
	[ "$(fields 14 < stdout | tr '\n' ' ')" = "0.40000 0.40000 0.20000 0.00000 0.00000 0.00000 " ]
	# three comment lines before each data line
	awk '/^# RegionId = / { s = 1; next } s == 1 && /^#Start: pc / { s = 2; next }
	    s == 2 && /^#End: pc / { s = 3; next }
	    /^(cluster|Warmup)/ { if (s != 3) { print "no comments before " $0; bad = 1 } s = 0 }
	    END { exit bad }' stdout
}

@test "the CSV as run-looppoint.py, gem5's LooppointCsvLoader, split.pc-csvfile.py and SDE read it" {
	here
	dcfg-regions -s t.simpoints -w t.weights -l t.labels --warmup-factor 2 -o regions.csv prog.T.3.bb
	capture python3 "$BATS_TEST_DIRNAME/tools/regions-readers.py" regions.csv
	# looppoint: id, start image offset count, end image offset count, multiplier;
	# gem5: id, start pc count, end pc count relative, multiplier (decimal: 0x401010 =
	# 4198416, 0x401000 = 4198400, 0x7f0000001000 = 139637976731648)
	expect_stdout <<-'EOF'
		simulation 1 prog 4112 3 prog 4096 4 1.809 gem5 1 4198416 3 4198400 4 2 1.809
		simulation 2 prog 4096 4 lib\x20c\x2cx.so 4096 4 2.128 gem5 2 4198400 4 139637976731648 4 1 2.128
		simulation 3 lib\x20c\x2cx.so 4096 4 prog 4112 6 1.064 gem5 3 139637976731648 4 4198416 6 2 1.064
		warmup 5 prog 4096 0 prog 4112 3 0.0 gem5 1 4198400 0 4198416 3
		warmup 6 prog 4096 0 prog 4096 4 0.0 gem5 2 4198400 0 4198400 4
		warmup 7 prog 4112 3 lib\x20c\x2cx.so 4096 4 0.0 gem5 3 4198416 3 139637976731648 4
	EOF
}

@test "relative counts agree with the markers' absolute counts (a second route)" {
	here
	dcfg-regions -s t.simpoints -w t.weights -l t.labels --warmup-factor 2 prog.T.3.bb > csv
	# from the start of the run, the end PC's executions are its absolute count;
	# when start and end are one PC, they are end count - start count + 1
	awk -F, '!/^#/ && NF == 16 {
		if ($7 == 0 && $12 != $11) { print "from the start: " $0; bad = 1 }
		if ($7 > 0 && $4 == $8 && $12 != $11 - $7 + 1) { print "same pc: " $0; bad = 1 }
		n++ } END { exit bad || n != 6 }' csv
	# a region of a PC that is its own end: slice 3 starts with block 1's 7th
	# entry (it runs twice there, block 4 four times), so block 2's next is its 5th
	sed -e 's/^S: 0x7f0000001000 4 .*/S: 0x401000 7 \/usr\/bin\/prog 0x400000 + 0x1000 # \/src\/prog.c:10/' \
	    -e 's/^T:2:5 :4:15$/T:1:8 :4:12/' -e 's/^S: 0x401010 6 /S: 0x401010 5 /' prog.T.3.bb > loop.bb
	grep -c '0x401000 7\|^T:1:8 :4:12$\|0x401010 5 ' loop.bb | grep -qx 3
	printf '2 0\n' > sp
	printf '1 0\n' > w
	dcfg_regions -s sp -w w loop.bb
	# block 1 runs 3 times in slice 2 (12/4), from count 4: the 7th is the end, 7 - 4 + 1 = 4
	grep -q '^cluster 0 from slice 2,3,1,0x401000,prog,0x1000,4,0x401000,prog,0x1000,7,4,20,1.00000,5.000,simulation$' stdout
}

@test "a region of the first slice starts at count 0, from the start of the run" {
	here
	printf '0 1\n1 0\n3 2\n' > t.simpoints
	dcfg_regions -s t.simpoints -w t.weights -l t.labels prog.T.3.bb
	# cluster 1 is slice 0: start pc of marker 0, count 0; icount 0; block 2 twice
	# in slice 0 and its marker: relative 3, its absolute count
	grep -qxF '# RegionId = 2 Slice = 0 Icount = 0 Length = 20 Weight = 0.40000 Multiplier = 2.128 ClusterSlicecount = 2 ClusterIcount = 40' stdout
	grep -qxF '#Start: pc : 0x401000 image: prog offset: 0x1000 absolute_count: 0  source-info: prog.c:10' stdout
	grep -qxF 'cluster 1 from slice 0,3,2,0x401000,prog,0x1000,0,0x401010,prog,0x1010,3,3,20,0.40000,2.128,simulation' stdout
	# no warmup before it
	dcfg_regions -s t.simpoints -w t.weights -l t.labels --warmup-factor 1 prog.T.3.bb
	grep -qxF '# No warmup possible for regionid 2 with WarmupFactor 1' stdout
	! grep -q 'warmup:2$' stdout
	grep -q 'warmup:1$' stdout
}

@test "the last slice: its end is the profile's last marker, inside it, with a note" {
	here
	printf '4 0\n2 1\n3 2\n' > t.simpoints
	dcfg_regions -s t.simpoints -w t.weights -l t.labels prog.T.3.bb
	[ "$status" -eq 0 ]
	# marker 5 (block 3, count 6) is the thread's last entry, in slice 4: block 3
	# runs once there (2/2) and that is the marker itself: relative 1
	grep -qxF 'cluster 0 from slice 4,3,1,0x401010,prog,0x1010,6,0x401020,prog,0x1020,6,1,11,0.40000,1.809,simulation' stdout
	[ "$(cat stderr)" = "dcfg-regions: note: region 1 is the profile's last slice: it ends where the thread's last block starts, the profile's last marker" ]
	# without that marker there is no end to stop at
	grep -v '^S: 0x401020 ' prog.T.3.bb > nolast.bb
	dcfg_regions -s t.simpoints -w t.weights nolast.bb
	expect_error 'dcfg-regions: t.simpoints:1:1: slice 4 is the profile'"'"'s last, and nolast.bb has no marker after it'
}

@test "without t.labels the multiplier is weight x slices, and the cluster sums are left out" {
	here
	dcfg_regions -s t.simpoints -w t.weights prog.T.3.bb
	# 0.4 x 5 = 2, 0.4 x 5 = 2, 0.2 x 5 = 1
	[ "$(fields 15 < stdout | tr '\n' ' ')" = "2.000 2.000 1.000 " ]
	grep -qxF '# RegionId = 1 Slice = 1 Icount = 20 Length = 23 Weight = 0.40000 Multiplier = 2.000' stdout
	! grep -q Cluster stdout
}

@test "gem5's looppoint.json: the CSV's markers, relative counts and multipliers, warmups" {
	here
	# prog.dcfg.json: only thread 3 runs the markers' PCs, so gem5's count over every core is thread 3's
	dcfg_regions -s t.simpoints -w t.weights -l t.labels --warmup-factor 2 -f looppoint-json \
	    --dcfg prog.dcfg.json prog.T.3.bb
	[ "$status" -eq 0 ]
	# read as gem5's LooppointJsonLoader reads it, and compared with the CSV by the reader script
	python3 - stdout <<-'PY' > json.view
		import json, sys
		d = json.load(open(sys.argv[1]))
		for rid in d:
		    r = d[rid]; s = r["simulation"]
		    print(int(rid), int(s["start"]["pc"]), int(s["start"]["global"]), int(s["end"]["pc"]),
		          int(s["end"]["global"]), int(s["end"]["relative"]), float(r["multiplier"]))
		    if "warmup" in r:
		        w = r["warmup"]
		        print("warmup", int(rid), w["start"]["pc"], w["start"]["count"], w["end"]["pc"], w["end"]["count"])
	PY
	dcfg-regions -s t.simpoints -w t.weights -l t.labels --warmup-factor 2 -o csv prog.T.3.bb
	python3 "$BATS_TEST_DIRNAME/tools/regions-readers.py" csv |
	    awk '$1 == "simulation" { print $11, $12, $13, $14, $15, $16, $17 }
	         $1 == "warmup" { print "warmup", $11, $12, $13, $14, $15 }' | sort > csv.view
	sort json.view > json.sorted
	diff csv.view json.sorted
	[ "$(wc -l < csv.view)" -eq 6 ]
}

@test "SDE -control arguments: image+offset, counts, start left out from the run's start" {
	here
	printf '4 0\n0 1\n3 2\n' > t.simpoints
	dcfg_regions -s t.simpoints -w t.weights -f sde-control prog.T.3.bb
	# region 1 (slice 4): markers 4 and 5; region 2 (slice 0): from the start,
	# so only the stop at marker 1; region 3 (slice 3): markers 3 and 4
	cat > expected <<-'EOF'
		-control start:address:prog+0x1010:count6:tid3 -control stop:address:prog+0x1020:count6:tid3
		-control stop:address:prog+0x1010:count3:tid3
		-control start:address:lib\x20c\x2cx.so+0x1000:count4:tid3 -control stop:address:prog+0x1010:count6:tid3
	EOF
	diff expected stdout
}

@test "an M: marker (no image): no_image and offset 0x0, and the absolute address for SDE" {
	here
	sed 's/^S: 0x7f0000001000 4 .*/M: 0x7f0000001000 4 no_image 0/' prog.T.3.bb > m.bb
	printf '2 0\n' > sp
	printf '1 0\n' > w
	dcfg_regions -s sp -w w m.bb
	grep -qxF 'cluster 0 from slice 2,3,1,0x401000,prog,0x1000,4,0x7f0000001000,no_image,0x0,4,1,20,1.00000,5.000,simulation' stdout
	grep -qxF '#End: pc : 0x7f0000001000 image: no_image offset: 0x0 absolute_count: 4  relative_count: 1 source-info: Unknown:0' stdout
	dcfg_regions -s sp -w w -f sde-control m.bb
	[ "$(cat stdout)" = "-control start:address:prog+0x1000:count4:tid3 -control stop:address:0x7f0000001000:count4:tid3" ]
}

@test "a PinPoints profile of another writer: no P:, no source, blanks anywhere, no trailer counts" {
	{
		echo 'S: 0x401000 1 /usr/bin/prog 0x400000 + 0x1000'
		echo 'T:1:8   :2:10 : 3 : 2'
		echo 'S:  0x401010 3 /usr/bin/prog 0x400000 + 0x1010'
		echo 'T:1:4 :2:10'
		echo 'S: 0x401000 4 /usr/bin/prog 0x400000 + 0x1000'
		echo 'Block id: 1 0x401000:0x401009 static instructions: 4'
		echo 'Block id: 2 0x401010:0x40101f static instructions: 5'
		echo 'Block id: 3 0x401020:0x401027 static instructions: 2'
	} > other.bb
	printf '1 0\n0 1\n' > sp
	printf '0.5 0\n0.5 1\n' > w
	dcfg_regions -s sp -w w other.bb
	expect_error 'dcfg-regions: other.bb: no P: line gives the thread (--thread TID does)'
	dcfg_regions -s sp -w w --thread 9 other.bb
	[ "$status" -eq 0 ]
	# no "# file:line": source-info Unknown:0, the image and offset still known;
	# slice 1 (14 instructions) ends at the profile's last marker, inside it:
	# block 1 once (4/4), relative 1; 0.5 x 2 slices = 1
	grep -qxF '#Start: pc : 0x401010 image: prog offset: 0x1010 absolute_count: 3  source-info: Unknown:0' stdout
	grep -qxF 'cluster 0 from slice 1,9,1,0x401010,prog,0x1010,3,0x401000,prog,0x1000,4,1,14,0.50000,1.000,simulation' stdout
	grep -qxF 'cluster 1 from slice 0,9,2,0x401000,prog,0x1000,0,0x401010,prog,0x1010,3,3,20,0.50000,1.000,simulation' stdout
	# a P: line that says otherwise
	here
	dcfg_regions -s t.simpoints -w t.weights --thread 4 prog.T.3.bb
	expect_error 'dcfg-regions: prog.T.3.bb: its P: line says thread 3, not 4'
}

@test "names are one word: spaces, commas, backslashes and controls escaped, as the profile's are unescaped" {
	here
	# the profile holds "/opt/a b,c\d<TAB>e.so" escaped as its writer does (" " only)
	sed 's|/lib/lib\\x20c,x.so|/opt/a\\x20b,c\\\\d\\te.so|' prog.T.3.bb > names.bb
	grep -qF '/opt/a\x20b,c\\d\te.so 0x7f0000000000' names.bb
	printf '2 0\n' > sp
	printf '1 0\n' > w
	dcfg_regions -s sp -w w names.bb
	grep -qF ',0x7f0000001000,a\x20b\x2cc\\d\te.so,0x1000,4,' stdout
	grep -qF 'image: a\x20b\x2cc\\d\te.so offset' stdout
	dcfg_regions -s sp -w w -f sde-control names.bb
	grep -qF 'stop:address:a\x20b\x2cc\\d\te.so+0x1000:count4:tid3' stdout
}

@test "SimPoint's answer and the profile disagree: clusters missing or extra, a slice past the last, labels" {
	here
	printf '1 0\n2 1\n' > sp
	dcfg_regions -s sp -w t.weights prog.T.3.bb
	expect_error 'dcfg-regions: t.weights:3:5: cluster 2 is not in sp'
	printf '1 0\n2 1\n3 2\n4 5\n' > sp
	dcfg_regions -s sp -w t.weights prog.T.3.bb
	expect_error 'dcfg-regions: sp:4:1: cluster 5 has no weight in t.weights'
	printf '1 0\n2 1\n1 0\n' > sp
	dcfg_regions -s sp -w t.weights prog.T.3.bb
	expect_error 'dcfg-regions: sp:3:1: cluster 0 chosen twice'
	printf '0.4 0\n0.4 1\n0.2 2\n0.2 1\n' > w
	dcfg_regions -s t.simpoints -w w prog.T.3.bb
	expect_error 'dcfg-regions: w:4:5: cluster 1 weighed twice'
	printf '1 0\n5 1\n3 2\n' > sp
	dcfg_regions -s sp -w t.weights prog.T.3.bb
	expect_error 'dcfg-regions: sp:2:1: slice 5 is past the profile'"'"'s last (prog.T.3.bb has 5 slices, from 0)'
	printf '1 0\n0 0.25\n1 0\n2 0\n' > l
	dcfg_regions -s t.simpoints -w t.weights -l l prog.T.3.bb
	expect_error 'dcfg-regions: l:5:1: 4 labels for the 5 slices of prog.T.3.bb'
	printf '1 0\n1 0.25\n1 0\n2 0\n0 0\n' > l
	dcfg_regions -s t.simpoints -w t.weights -l l prog.T.3.bb
	expect_error 'dcfg-regions: t.simpoints:1:1: slice 1 is in cluster 1 in l, not 0'
}

@test "weights that do not add up to 1, or are no weight" {
	here
	printf '0.4 0\n0.3 1\n0.2 2\n' > w
	dcfg_regions -s t.simpoints -w w prog.T.3.bb
	expect_error 'dcfg-regions: w:3:1: the weights add up to 0.900000, not 1'
	# SimPoint's 6 digits: 1/3 three times is close enough
	printf '0.333333 0\n0.333333 1\n0.333333 2\n' > w
	dcfg_regions -s t.simpoints -w w prog.T.3.bb
	[ "$status" -eq 0 ]
	grep -q ',0.33333,' stdout
	for bad in 1.5 -0.1 nan inf 0x1p-1 . 1e 4,0; do
		printf '%s 0\n0.4 1\n0.2 2\n' "$bad" > w
		dcfg_regions -s t.simpoints -w w prog.T.3.bb
		expect_error 'dcfg-regions: w:1:1: not a weight (0 to 1)'
	done
	printf '4e-1 0\n.4 1\n2E-1 2\n' > w
	dcfg_regions -s t.simpoints -w w prog.T.3.bb
	[ "$status" -eq 0 ]
}

@test "garbage, huge numbers and empty files are errors at their line and column" {
	here
	printf '1 0\nfoo 1\n' > sp
	dcfg_regions -s sp -w t.weights prog.T.3.bb
	expect_error 'dcfg-regions: sp:2:1: not a slice number'
	printf '1 0\n2 x\n' > sp
	dcfg_regions -s sp -w t.weights prog.T.3.bb
	expect_error 'dcfg-regions: sp:2:3: not a cluster number (0 to 2147483647)'
	printf '1 0\n2\n' > sp
	dcfg_regions -s sp -w t.weights prog.T.3.bb
	expect_error 'dcfg-regions: sp:2:2: two numbers expected, found one'
	printf '1 0 7\n' > sp
	dcfg_regions -s sp -w t.weights prog.T.3.bb
	expect_error 'dcfg-regions: sp:1:5: two numbers expected, found more'
	printf '18446744073709551616 0\n' > sp
	dcfg_regions -s sp -w t.weights prog.T.3.bb
	expect_error 'dcfg-regions: sp:1:1: not a slice number'
	printf '18446744073709551615 0\n' > sp
	printf '1 0\n' > w
	dcfg_regions -s sp -w w prog.T.3.bb
	expect_error 'dcfg-regions: sp:1:1: slice 18446744073709551615 is past any profile'"'"'s slices'
	printf '1 2147483648\n' > sp
	dcfg_regions -s sp -w t.weights prog.T.3.bb
	expect_error 'dcfg-regions: sp:1:3: not a cluster number (0 to 2147483647)'
	: > empty
	dcfg_regions -s empty -w t.weights prog.T.3.bb
	expect_error 'dcfg-regions: empty:1:1: no simulation point: the file is empty'
	dcfg_regions -s t.simpoints -w empty prog.T.3.bb
	expect_error 'dcfg-regions: empty:1:1: no weight: the file is empty'
	dcfg_regions -s t.simpoints -w t.weights -l empty prog.T.3.bb
	expect_error 'dcfg-regions: empty:1:1: no label: the file is empty'
	dcfg_regions -s t.simpoints -w t.weights empty
	expect_error 'dcfg-regions: empty:1:1: no slice (T line): not a profile'
	dcfg_regions -s t.simpoints -w t.weights missing.bb
	expect_error_like '^dcfg-regions: missing.bb: '
}

# broken SED-SCRIPT: the profile with one edit, through dcfg-regions
broken() {
	sed "$1" prog.T.3.bb > bad.bb
	! cmp -s prog.T.3.bb bad.bb
	dcfg_regions -s t.simpoints -w t.weights bad.bb
}

@test "a broken profile: every line checked, at its line and column" {
	here
	broken 's/^T:1:12 :3:8$/T:1:12 :3:8 junk/'
	expect_error 'dcfg-regions: bad.bb:17:13: ":" expected'
	broken 's/^T:2:5 :4:15$/T:2:5 :4:18446744073709551616/'
	expect_error 'dcfg-regions: bad.bb:21:10: not an instruction count below 2^64'
	broken 's/^T:2:5 :4:15$/T:2:5 :4:18446744073709551615/'
	expect_error 'dcfg-regions: bad.bb:21:10: the slice'"'"'s instructions pass 2^64'
	broken 's/^T:2:5 :4:15$/T/'
	expect_error 'dcfg-regions: bad.bb:21:1: an empty T line (SimPoint stops reading at one)'
	broken '/^S: 0x401000 4 /d'
	expect_error 'dcfg-regions: bad.bb:16:1: the slice before has no end marker (S: or M: line)'
	broken '6d'
	expect_error 'dcfg-regions: bad.bb:8:1: no marker (S: or M: line) before the first T line'
	broken '10p'
	expect_error 'dcfg-regions: bad.bb:11:1: a second marker after a T line'
	broken 's/^S: 0x401010 3 /S: 0x401010 0 /'
	expect_error 'dcfg-regions: bad.bb:10:13: not an execution count (1 or more)'
	broken 's/^S: 0x401010 3 \/usr\/bin\/prog 0x400000 + 0x1010/S: 0x401010 3 \/usr\/bin\/prog 0x400000 + 0x1011/'
	expect_error 'dcfg-regions: bad.bb:10:40: the offset is not the PC minus the image'"'"'s low address'
	broken 's/^S: 0x401010 3 .*/S: 0x401010 3 \/usr\/bin\/prog 0x400000/'
	expect_error 'dcfg-regions: bad.bb:10:1: an S: line has 7 or 9 words: S: 0xPC COUNT IMAGE 0xLOW + 0xOFFSET # FILE:LINE'
	broken 's/^S: 0x401010 3 .*/S: 0x401010/'
	expect_error 'dcfg-regions: bad.bb:10:12: not an execution count (1 or more)'
	broken 's/^S: 0x401010 3 .*/S:/'
	expect_error 'dcfg-regions: bad.bb:10:3: not a PC (0x...)'
	broken 's/^S: 0x401010 3 /S: 401010 3 /'
	expect_error 'dcfg-regions: bad.bb:10:4: not a PC (0x...)'
	broken 's/^Dynamic instruction count 94/Dynamic instruction count 95/'
	expect_error 'dcfg-regions: bad.bb:27:27: the T lines add up to 94 instructions, not this'
	broken 's/^Block id: 3 0x401020:0x401027/Block id: 3 0x401027:0x401020/'
	expect_error 'dcfg-regions: bad.bb:32:13: not an address range 0xSTART:0xEND'
	broken 's/^Block id: 3 /Block id: 2 /'
	expect_error 'dcfg-regions: bad.bb:32:1: block id 2 listed twice'
	broken 's/static instructions: 5 /static instructions: 0 /'
	expect_error 'dcfg-regions: bad.bb:31:52: not a number of static instructions (1 or more)'
	broken 's/static instructions: 4 /static instructions: 3 /'
	expect_error 'dcfg-regions: bad.bb:30:1: slice 1 gives block 1 4 instructions, not a multiple of its 3'
	broken '/^Block id: 1 /d'
	expect_error 'dcfg-regions: bad.bb:14:1: the marker'"'"'s PC 0x401000 is in no Block id line'
	broken 's/^S: 0x401000 4 /S: 0x401000 1 /'
	expect_error 'dcfg-regions: bad.bb:14:1: the vectors give the marker'"'"'s PC 2 executions since slice 1, more than its count'
	broken 's/^SliceSize: 20/Slice size 20/'
	expect_error 'dcfg-regions: bad.bb:29:1: not a line of a profile (T, S:, M:, P:, C:, G:, Block id:, Dynamic, SliceSize:, End of bb, #)'
	broken '$a\
T:1:4'
	expect_error 'dcfg-regions: bad.bb:35:1: a line after End of bb'
	broken 's/^P: 3/P: 3\nP: 4/'
	expect_error 'dcfg-regions: bad.bb:3:4: a second P: line with another thread id'
	broken 's/^SliceSize: 20/S: 0x401000 9 no_image 0/'
	expect_error 'dcfg-regions: bad.bb:29:1: a second marker after a T line'
}

@test "-o: the file is written whole or not at all; an input is never overwritten" {
	here
	dcfg-regions -s t.simpoints -w t.weights -o regions.csv prog.T.3.bb
	dcfg-regions -s t.simpoints -w t.weights prog.T.3.bb > direct.csv
	cmp regions.csv direct.csv
	# an error leaves the old file as it was, and no temporary behind
	printf 'garbage\n' > sp
	dcfg_regions -s sp -w t.weights -o regions.csv prog.T.3.bb
	expect_error 'dcfg-regions: sp:1:8: two numbers expected, found one'
	cmp regions.csv direct.csv
	[ "$(ls -A | grep -c 'regions.csv.')" -eq 0 ]
	for f in prog.T.3.bb t.simpoints t.weights t.labels; do
		cp "$f" before
		dcfg_regions -s t.simpoints -w t.weights -l t.labels -o "$f" prog.T.3.bb
		expect_error "dcfg-regions: $f: the output is also an input ($f); refusing to write over it"
		cmp before "$f"
	done
	dcfg_regions -s t.simpoints -w t.weights -o /dev/full prog.T.3.bb
	[ "$status" -eq 2 ]
	grep -q '^dcfg-regions: /dev/full: .*No space left on device' stderr
	# standard input for one of them
	# standard input for one of them (named "-" in the first line)
	sed 1d direct.csv > body
	dcfg-regions -s t.simpoints -w t.weights - < prog.T.3.bb | sed 1d | cmp - body
	dcfg-regions -s - -w t.weights prog.T.3.bb < t.simpoints | sed 1d | cmp - body
	dcfg-regions -s t.simpoints -w t.weights prog.T.3.bb | head -n 1 > first
	[ "$(cat first)" = '# Regions based on: prog.T.3.bb t.simpoints t.weights' ]
}

@test "usage errors" {
	here
	dcfg_regions -w t.weights prog.T.3.bb
	[ "$status" -eq 2 ]
	[ "$(head -n 1 stderr)" = 'dcfg-regions: --simpoints FILE and --weights FILE are needed' ]
	dcfg_regions -s t.simpoints -w t.weights
	[ "$(head -n 1 stderr)" = 'dcfg-regions: one PROFILE expected' ]
	dcfg_regions -s t.simpoints -w t.weights --format xml prog.T.3.bb
	[ "$(head -n 1 stderr)" = 'dcfg-regions: --format xml: csv, looppoint-json or sde-control' ]
	dcfg_regions -s t.simpoints -w t.weights --warmup-factor 0 prog.T.3.bb
	[ "$(head -n 1 stderr)" = 'dcfg-regions: --warmup-factor 0: a number of slices, 1 or more' ]
	dcfg_regions -s t.simpoints -w t.weights --warmup-factor 1 -f sde-control prog.T.3.bb
	[ "$(head -n 1 stderr)" = 'dcfg-regions: --warmup-factor has no -control form: use the CSV or looppoint-json' ]
	dcfg_regions -s t.simpoints -w t.weights --thread x prog.T.3.bb
	[ "$(head -n 1 stderr)" = 'dcfg-regions: --thread x: a thread id' ]
	dcfg_regions -s - -w - prog.T.3.bb
	[ "$status" -eq 2 ]
	[ "$(head -n 1 stderr)" = 'dcfg-regions: only one input can be standard input' ]
	[ ! -s stdout ]
	dcfg_regions --help
	[ "$status" -eq 0 ]
	grep -q '^usage: dcfg-regions ' stdout
	dcfg_regions -V
	grep -q '^dcfg-regions (dcfg-tools) ' stdout
}

@test "the man page is clean" {
	command -v mandoc > /dev/null || skip "mandoc is not installed"
	run mandoc -Tlint -Wwarning "$BATS_TEST_DIRNAME/../man/man1/dcfg-regions.1"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ -z "$output" ]
}

# examples PAGE [SECTION]: each literal block of PAGE's EXAMPLES (or of
# SECTION) that starts with "$ ", its lines ended by "%%": commands ("$ "
# lines) with their continuation lines (after "\e" or "|" at the end)
# joined, \e made "\" and \& nothing.
examples() {
	awk -v section="${2:-EXAMPLES}" '
	    /^\.S[hs] / { on = (substr($0, 5) == section) }
	    on && /^\.Bd -literal/ { block = 1; first = 1; cont = 0; next }
	    block && /^\.Ed/ { block = 0; print "%%"; next }
	    block {
		line = $0
		gsub(/\\&/, "", line)
		if (first && line !~ /^\$ /) { block = 0; next }
		if (line ~ /^\$ /) cmd = 1
		more = cmd && line ~ /(\\e|\|)$/
		if (more) sub(/ *\\e$/, " ", line)
		if (more && line ~ /\|$/) line = line " "
		gsub(/\\e/, "\\", line)
		if (cont) sub(/^ +/, "", line)
		printf "%s%s", line, (more ? "" : "\n")
		cont = more; first = 0
		if (!more) cmd = 0
	    }' "$1"
}

@test "the man page's examples, run in t/data/regions" {
	man="$BATS_TEST_DIRNAME/../man/man1/dcfg-regions.1"
	here
	examples "$man" > blocks
	[ "$(grep -c '^%%$' blocks)" -eq 3 ]
	n=0
	while IFS= read -r cmd; do
		cmd=${cmd#\$ }
		: > want
		while IFS= read -r l && [ "$l" != "%%" ]; do printf '%s\n' "$l" >> want; done
		sh -c "$cmd" > got 2> err
		diff want got || { echo "example: $cmd"; return 1; }
		[ ! -s err ]
		n=$((n + 1))
	done < blocks
	[ "$n" -eq 3 ]
}

@test "the man page's recipe: its last step on the hand-made files" {
	man="$BATS_TEST_DIRNAME/../man/man1/dcfg-regions.1"
	here
	examples "$man" "Sampled simulation in three steps" > steps
	[ "$(wc -l < steps)" -eq 4 ]
	sed -i 's/^\$ //' steps
	grep -q '^dcfg-expand prog.trace.json.bz2 | dcfg-profile --dcfg prog.dcfg.json.bz2 --slice-size 100000000 -o prog$' steps
	grep -q '^simpoint -loadFVFile prog.T.0.bb .* -saveSimpoints t.simpoints -saveSimpointWeights t.weights -saveLabels t.labels$' steps
	# the third step, as the page gives it, on a thread-0 profile (the hand-made one, renamed)
	sed 's/^P: 3$/P: 0/; 1s/ thread=3$/ thread=0/' prog.T.3.bb > prog.T.0.bb
	sh -c "$(sed -n 3p steps)"
	dcfg-regions -s t.simpoints -w t.weights -l t.labels prog.T.3.bb | sed 1d |
	    sed 's/^\(cluster [0-9]* from slice [0-9]*\),3,/\1,0,/' > want
	sed 1d prog.pinpoints.csv | diff want -
}

@test "the man page's recipe from the start, with dcfg-profile and SimPoint" {
	command -v dcfg-profile > /dev/null || skip "dcfg-profile is not built in this tree"
	command -v simpoint > /dev/null || skip "SimPoint is absent: neither simpoint on the PATH nor ../shared/tools/simpoint/simpoint (the recipe's second step)"
	man="$BATS_TEST_DIRNAME/../man/man1/dcfg-regions.1"
	examples "$man" "Sampled simulation in three steps" | sed -e '$d' -e 's/^\$ //' \
	    -e 's/100000000/2000/' > steps
	cp "$DATA/sample/prog.trace.json.bz2" .
	gzip -dc "$DATA/sample/prog.dcfg.json.gz" | bzip2 > prog.dcfg.json.bz2
	sh -e steps
	awk -F, '!/^#/ && NF { if (NF != 16) exit 1; n++ } END { exit n == 0 }' prog.pinpoints.csv
}

@test "an end marker in an image left out of the vectors: refused, its relative count is unknown" {
	here
	# the library's block 4 taken out of the T lines, as dcfg-profile --exclude-image does
	sed -e 's/^T:1:4 :2:10 :4:9$/T:1:4 :2:10/' -e 's/^T:2:5 :4:15$/T:2:5/' \
	    -e 's/^Dynamic instruction count 94$/Dynamic instruction count 70/' prog.T.3.bb > excl.bb
	# region 2 ends at block 4's 4th entry: Block id: 4 (line 33) ran 8 times, in no T line
	dcfg_regions -s t.simpoints -w t.weights excl.bb
	expect_error 'dcfg-regions: excl.bb:33:1: the marker'"'"'s PC 0x7f0000001000 is in block 4, which ran 8 times but is in no T line (an image left out of the vectors): its executions in a region are unknown'
	# regions that end elsewhere are exact: slice 1 ends at block 1
	printf '1 0\n' > sp
	printf '1 0\n' > w
	dcfg_regions -s sp -w w excl.bb
	grep -q '^cluster 0 from slice 1,3,1,0x401010,prog,0x1010,3,0x401000,prog,0x1000,4,2,14,' stdout
	# without the block count (another writer's Block id lines) nothing shows it
	sed 's/ block count: 8 block size: 16$//' excl.bb > nocount.bb
	grep -qx 'Block id: 4 0x7f0000001000:0x7f000000100f static instructions: 3' nocount.bb
	dcfg_regions -s t.simpoints -w t.weights nocount.bb
	[ "$status" -eq 0 ]
}

@test "overlapping blocks: the marker counts the entries of the block that starts at its PC" {
	here
	# block 9 (8 instructions, 0x400ff0-0x40100f) holds 0x401000 too; it runs once in slice 1
	sed -e 's/^T:1:4 :2:10 :4:9$/T:1:4 :2:10 :4:9 :9:8/' \
	    -e 's/^Dynamic instruction count 94$/Dynamic instruction count 102/' \
	    -e 's/^SliceSize: 20$/SliceSize: 20\nBlock id: 9 0x400ff0:0x40100f static instructions: 8 block count: 1 block size: 32/' \
	    prog.T.3.bb > overlap.bb
	printf '1 0\n' > sp
	printf '1 0\n' > w
	# region of slice 1, ending at block 1's 4th entry: block 1 once in it, and the
	# marker: 2, block 9 left out (31 instructions now)
	dcfg_regions -s sp -w w overlap.bb
	grep -q '^cluster 0 from slice 1,3,1,0x401010,prog,0x1010,3,0x401000,prog,0x1000,4,2,31,' stdout
	# with no block starting at 0x401000, the blocks that hold it count, as
	# pcregions.py takes them: block 9 once, and the marker: 2
	grep -v '^Block id: 1 ' overlap.bb > inside.bb
	dcfg_regions -s sp -w w inside.bb
	grep -q '^cluster 0 from slice 1,3,1,0x401010,prog,0x1010,3,0x401000,prog,0x1000,4,2,31,' stdout
	# block 9 three times instead: 3 + 1
	sed 's/ :9:8$/ :9:24/; s/^Dynamic instruction count 102$/Dynamic instruction count 118/' inside.bb > inside3.bb
	dcfg_regions -s sp -w w inside3.bb
	grep -q '^cluster 0 from slice 1,3,1,0x401010,prog,0x1010,3,0x401000,prog,0x1000,4,4,47,' stdout
}

@test "the man page's diagnostics are what dcfg-regions says" {
	man="$BATS_TEST_DIRNAME/../man/man1/dcfg-regions.1"
	# the messages of the page, wrapped lines joined
	awk '/^\.Sh DIAGNOSTICS/ { on = 1 } /^\.Sh SEE ALSO/ { on = 0 }
	    on && /^\.Bd -literal/ { b = 1; next } on && /^\.Ed/ { b = 0; if (l != "") print l; l = ""; next }
	    b { if ($0 ~ /^    /) { sub(/^ +/, " "); l = l $0 } else { if (l != "") print l; l = $0 } }' "$man" |
	    sed "s/\\\\(aq/'/g" > page
	[ "$(wc -l < page)" -eq 6 ]
	here
	# a DCFG whose thread 0 enters 0x401000 (node 11) once too, named by the profile
	python3 - <<-'PY'
		import json
		d = json.load(open("prog.dcfg.json"))
		e = d["PROCESSES"][1][1]["EDGES"]
		e[13][4] = [0, 1, 1, 0]
		e += [[14, 15, 11, 18, [1, 0, 0, 0]], [15, 11, 2, 2, [1, 0, 0, 0]]]
		json.dump(d, open("t0.dcfg.json", "w"))
	PY
	{
		printf '1 0\n2 1\n' > t.simpoints
		dcfg-regions -s t.simpoints -w t.weights prog.T.3.bb
		printf '1 0\n2 1\n3 2\n4 5\n' > t.simpoints
		dcfg-regions -s t.simpoints -w t.weights prog.T.3.bb
		printf '1 0\n5 1\n3 2\n' > t.simpoints
		dcfg-regions -s t.simpoints -w t.weights prog.T.3.bb
		printf '1 0\n2 1\n3 2\n' > t.simpoints
		printf '0.4 0\n0.3 1\n0.2 2\n' > t.weights
		dcfg-regions -s t.simpoints -w t.weights prog.T.3.bb
		cp "$R/t.weights" .
		sed -i 's/^T:2:5 :4:15$/T/' prog.T.3.bb
		dcfg-regions -s t.simpoints -w t.weights prog.T.3.bb
		sed "1s/dcfg=[^ ]*/dcfg=$(dcfg_id t0.dcfg.json)/" "$R/prog.T.3.bb" > prog.T.3.bb
		dcfg-regions -s t.simpoints -w t.weights -f sde-control --global-counts --dcfg t0.dcfg.json prog.T.3.bb
	} 2> said > /dev/null || true
	diff page said
}

@test "the -control arguments are the CSV's markers (two routes to one answer)" {
	here
	for sp in '1 0\n2 1\n3 2\n' '0 1\n4 0\n3 2\n'; do
		printf "$sp" > t.simpoints
		dcfg-regions -s t.simpoints -w t.weights -f sde-control prog.T.3.bb > sde 2> /dev/null
		dcfg-regions -s t.simpoints -w t.weights prog.T.3.bb 2> /dev/null |
		    awk -F, '/^cluster / {
			s = $7 == 0 ? "" : "-control start:address:" $5 "+" $6 ":count" $7 ":tid" $2 " "
			print s "-control stop:address:" $9 "+" $10 ":count" $11 ":tid" $2 }' > from-csv
		[ "$(wc -l < sde)" -eq 3 ]
		diff from-csv sde
	done
}

# each_slice_its_cluster PROFILE: t.simpoints and t.weights that make every
# slice of PROFILE a cluster of its own, of weight 1/slices
each_slice_its_cluster() {
	local n
	n=$(grep -c '^T' "$1")
	awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) print i, i }' > t.simpoints
	awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "%.6f %d\n", 1 / n, i }' > t.weights
}

@test "regions of dcfg-profile's profiles, checked by walking the expanded trace" {
	command -v dcfg-profile > /dev/null || skip "dcfg-profile is not built in this tree"
	local S="$DATA/sample" tid rule
	dcfg-expand "$S/prog.trace.json.bz2" | dcfg-blocks --dcfg "$S/prog.dcfg.json.gz" > blocks
	for rule in '' --loop-aligned; do
		rm -f prog.T.*.bb
		# shellcheck disable=SC2086
		dcfg-expand "$S/prog.trace.json.bz2" |
		    dcfg-profile --dcfg "$S/prog.dcfg.json.gz" --slice-size 3000 $rule -o prog
		for tid in 0 1; do
			[ -f "prog.T.$tid.bb" ]
			each_slice_its_cluster "prog.T.$tid.bb"
			dcfg-regions -s t.simpoints -w t.weights --warmup-factor 3 "prog.T.$tid.bb" > regions.csv 2> /dev/null
			# the second method: the thread's block entries (a block with instructions) in
			# order; a marker (pc, n) is the n-th entry at pc, count 0 the thread's start.
			# A region from marker A to marker B holds the entries from A up to B, B left
			# out unless B is the thread's last entry (the last slice's end); its relative
			# count is the entries at B's pc from A to B, B included.
			slices=$(sed -n 's/^# Total slices in workload = //p' regions.csv)
			awk -F'\t' -v tid="$tid" -v csv=regions.csv -v slices="$slices" '
			    /^# thread / { on = ($0 == "# thread " tid); next }
			    /^#/ || !on || $7 == "-" || $7 == 0 { next }
			    { n++; pc[n] = $3; ins[n] = $7; seen[$3]++; at[$3 " " seen[$3]] = n }
			    END {
				while ((getline l < csv) > 0) {
				    if (l ~ /^# RegionId/) { split(l, h, " "); icount = h[10]; continue }
				    if (l ~ /^#/ || l == "") continue
				    split(l, f, ",")
				    a = f[7] == 0 ? 1 : at[f[4] " " f[7]]; b = at[f[8] " " f[11]]
				    if (a == "" || b == "") { print "no such entry: " l; bad = 1; continue }
				    split(f[1], c, " ")
				    last = f[16] == "simulation" && c[5] == slices - 1
				    len = 0; rel = 0; before = 0
				    for (i = 1; i < a; i++) before += ins[i]
				    for (i = a; i < b || (i == b && last); i++) len += ins[i]
				    for (i = a; i <= b; i++) if (pc[i] == f[8]) rel++
				    if (len != f[13] || rel != f[12] || before != icount) {
					printf "region %s: length %s relative %s icount %s, walked %d %d %d\n",
					    f[3], f[13], f[12], icount, len, rel, before; bad = 1
				    }
				    checked++
				}
				if (checked < 10) { print "only " checked " regions"; bad = 1 }
				exit bad
			    }' blocks
		done
	done
}
