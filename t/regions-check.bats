#!/usr/bin/env bats
# dcfg-regions --check: the run that SimPoint's regions project (each
# region's vector times its multiplier) against the run the profile holds
# (the sum of its T lines), per block, with the BBV distance. Expected
# values are worked out by hand in the comments, or computed from the
# definitions by t/tools/regions_check_model.py on SimPoint's own answers.
#
# t/data/regions-check/two.T.7.bb, thread 7, two phases, 50 instructions:
#   slices 0, 1, 2 (phase A)  T:1:6 :2:4   block 1 (0x401000 in two) and 2 (0x401010)
#   slices 3, 4    (phase B)  T:3:5 :4:5   block 3 (0x7f0000001000 in libb.so) and 4 (+0x10)
# The whole run: block 1 18, block 2 12, block 3 10, block 4 10 instructions;
# its shares 0.36, 0.24, 0.2, 0.2.

load test_helper

C="$DATA/regions-check"
MODEL="$BATS_TEST_DIRNAME/tools/regions_check_model.py"

dcfg_regions() { capture dcfg-regions "$@"; }

here() {
	cp "$C"/two.T.7.bb "$C"/phases.dcfg.json "$C"/phases.stream .
}

# answer 'SLICE CLUSTER...' 'WEIGHT CLUSTER...' ['CLUSTER...']: SimPoint's files, by hand
answer() {
	printf "$1" > t.simpoints
	printf "$2" > t.weights
	if [ $# -gt 2 ]; then printf "$3" > t.labels; fi
}

HEAD=$(printf '# block\taddress\timage\toffset\tinstructions\tprojected_instructions\ttrue_share\tprojected_share\tshare_error')

@test "two phases, one region each: the projection is the run, error 0, distance 0" {
	here
	# slice 1 for phase A, slice 3 for phase B; weights 3/5 and 2/5, so the
	# multipliers are 0.6 x 5 = 3 and 0.4 x 5 = 2: 3 x (6, 4, 0, 0) + 2 x
	# (0, 0, 5, 5) = (18, 12, 10, 10), the run itself, 50 instructions
	answer '1 0\n3 1\n' '0.6 0\n0.4 1\n'
	dcfg_regions --check -s t.simpoints -w t.weights two.T.7.bb
	expect_stdout <<-EOF
		# dcfg-regions 1 slices=5 regions=2
		# thread 7
		# table blocks
		# instructions 50
		# projected_instructions 50.0
		# instruction_count_error 0.000000
		# bbv_distance 0.000000
		# block_share_error_max 0.000000
		$HEAD
		$(row 1 0x401000 two 0x1000 18 18.0 0.360000 0.360000 0.000000)
		$(row 2 0x401010 two 0x1010 12 12.0 0.240000 0.240000 0.000000)
		$(row 3 0x7f0000001000 libb.so 0x1000 10 10.0 0.200000 0.200000 0.000000)
		$(row 4 0x7f0000001010 libb.so 0x1010 10 10.0 0.200000 0.200000 0.000000)
		# summary thread 7: block share error max 0.000000, BBV distance 0.000000, instruction count error 0.000000
	EOF
	# the same slices chosen as the other of each phase: the same, exactly
	answer '2 0\n4 1\n' '0.6 0\n0.4 1\n' '0 0\n0 0\n0 0\n1 0\n1 0\n'
	dcfg-regions --check -s t.simpoints -w t.weights -l t.labels two.T.7.bb > again
	sed -n 's/^# summary //p' again > got
	echo 'thread 7: block share error max 0.000000, BBV distance 0.000000, instruction count error 0.000000' > want
	diff want got
}

@test "a choice that misses phase B: each block's error and the distance, by hand" {
	here
	# one cluster, slice 0, weight 1: multiplier 5, so 5 x (6, 4, 0, 0) =
	# (30, 20, 0, 0), 50 instructions as the run (count error 0). Shares
	# 0.6, 0.4, 0, 0 against 0.36, 0.24, 0.2, 0.2: errors +0.24, +0.16,
	# -0.2, -0.2; the distance |0.24| + |0.16| + |-0.2| + |-0.2| = 0.8, the
	# largest error 0.24, at block 1. Rows: most instructions first, then
	# by block (3 before 4).
	answer '0 0\n' '1 0\n'
	dcfg_regions --check -s t.simpoints -w t.weights two.T.7.bb
	expect_stdout <<-EOF
		# dcfg-regions 1 slices=5 regions=1
		# thread 7
		# table blocks
		# instructions 50
		# projected_instructions 50.0
		# instruction_count_error 0.000000
		# bbv_distance 0.800000
		# block_share_error_max 0.240000
		$HEAD
		$(row 1 0x401000 two 0x1000 18 30.0 0.360000 0.600000 0.240000)
		$(row 2 0x401010 two 0x1010 12 20.0 0.240000 0.400000 0.160000)
		$(row 3 0x7f0000001000 libb.so 0x1000 10 0.0 0.200000 0.000000 -0.200000)
		$(row 4 0x7f0000001010 libb.so 0x1010 10 0.0 0.200000 0.000000 -0.200000)
		# summary thread 7: block share error max 0.240000 (block 1 at 0x401000), BBV distance 0.800000, instruction count error 0.000000
	EOF
	# with the labels (all five slices in cluster 0): 50 / 50 x 5 = 5, the same
	printf '0 0\n0 0\n0 0\n0 0\n0 0\n' > t.labels
	dcfg-regions --check -s t.simpoints -w t.weights -l t.labels two.T.7.bb > labelled
	diff stdout labelled
}

@test "weights that are not the phases' shares: wrong without -l, exact with the labels' multipliers" {
	here
	# weights 0.5 and 0.5: multipliers 2.5 and 2.5, so (15, 10, 12.5, 12.5),
	# 50 instructions; shares 0.3, 0.2, 0.25, 0.25; errors -0.06, -0.04,
	# +0.05, +0.05; distance 0.2, the largest 0.06 at block 1
	answer '1 0\n3 1\n' '0.5 0\n0.5 1\n' '0 0\n0 0\n0 0\n1 0\n1 0\n'
	dcfg_regions --check -s t.simpoints -w t.weights two.T.7.bb
	[ "$status" -eq 0 ]
	[ "$(sed -n 's/^# bbv_distance //p' stdout)" = 0.200000 ]
	grep -qx "$(row 1 0x401000 two 0x1000 18 15.0 0.360000 0.300000 -0.060000)" stdout
	grep -qx "$(row 3 0x7f0000001000 libb.so 0x1000 10 12.5 0.200000 0.250000 0.050000)" stdout
	# with t.labels the multipliers are 30 / 50 x 5 = 3 and 20 / 50 x 5 = 2:
	# the run again, whatever the weights say
	dcfg_regions --check -s t.simpoints -w t.weights -l t.labels two.T.7.bb
	[ "$(sed -n 's/^# bbv_distance //p' stdout)" = 0.000000 ]
}

@test "slices of different lengths: the instruction count error, by hand on t/data/regions" {
	cp "$DATA"/regions/* .
	# t/regions.bats: slices of 20, 23, 20, 20, 11 instructions (94); labels
	# 1 0 1 2 0; regions: slice 1 (cluster 0: 34 instructions), slice 2
	# (cluster 1: 40), slice 3 (cluster 2: 20). Multipliers C x 5 / 94, so
	# the projection is 5/94 x (34 x 23 + 40 x 20 + 20 x 20) = 5/94 x 1982 =
	# 105.4255 instructions: (105.4255 - 94) / 94 = 0.121548.
	# Projected shares are sum(C x T[b]) / 1982: block 2 = (34 x 10 + 20 x 5)
	# / 1982 = 440/1982 = 0.221998 against 30/94 = 0.319149: -0.097151, the
	# largest. Block 1 = (34 x 4 + 40 x 12) / 1982 = 616/1982 = 0.310797,
	# against 28/94 = 0.297872: +0.012925. Block 3 = 40 x 8 / 1982 =
	# 0.161453 against 12/94: +0.033794. Block 4 = (34 x 9 + 20 x 15) / 1982
	# = 0.305752 against 24/94: +0.050433. The errors add up to 0, so the
	# distance is twice block 2's: 9050/46577 = 0.194302.
	dcfg_regions --check -s t.simpoints -w t.weights -l t.labels prog.T.3.bb
	expect_stdout <<-EOF
		# dcfg-regions 1 slices=5 regions=3
		# thread 3
		# table blocks
		# instructions 94
		# projected_instructions 105.4
		# instruction_count_error 0.121548
		# bbv_distance 0.194302
		# block_share_error_max 0.097151
		$HEAD
		$(row 2 0x401010 prog 0x1010 30 23.4 0.319149 0.221998 -0.097151)
		$(row 1 0x401000 prog 0x1000 28 32.8 0.297872 0.310797 0.012925)
		$(row 4 0x7f0000001000 'lib c,x.so' 0x1000 24 32.2 0.255319 0.305752 0.050433)
		$(row 3 0x401020 prog 0x1020 12 17.0 0.127660 0.161453 0.033794)
		# summary thread 3: block share error max 0.097151 (block 2 at 0x401010), BBV distance 0.194302, instruction count error 0.121548
	EOF
}

@test "every table format: the same figures, read back by Python's csv, jq and the eye" {
	here
	answer '0 0\n' '1 0\n'
	dcfg-regions --check -s t.simpoints -w t.weights two.T.7.bb > tsv
	dcfg-regions --check -f tsv -s t.simpoints -w t.weights two.T.7.bb | cmp - tsv
	# json: the rows and the thread's figures as numbers, the summary last
	dcfg-regions --check -f json -s t.simpoints -w t.weights two.T.7.bb > json
	jq -r '.tables[0] | [.thread, .table, .bbv_distance, .block_share_error_max] | @tsv' json > got
	printf '7\tblocks\t0.8\t0.24\n' | diff - got
	jq -r '.tables[0].rows[] | [.block, .image, .share_error] | @tsv' json > got
	printf '1\ttwo\t0.24\n2\ttwo\t0.16\n3\tlibb.so\t-0.2\n4\tlibb.so\t-0.2\n' | diff - got
	[ "$(jq -r 'keys_unsorted | last' json)" = summary ]
	[ "$(jq -r .summary json)" = "$(sed -n 's/^# summary //p' tsv)" ]
	# csv: one header, a record per block with the thread's fields in front
	dcfg-regions --check -f csv -s t.simpoints -w t.weights two.T.7.bb > csv
	python3 - csv <<-'EOF'
		import csv, sys
		rows = list(csv.DictReader(open(sys.argv[1], newline='')))
		assert [r['block'] for r in rows] == ['1', '2', '3', '4'], rows
		assert all(r['thread'] == '7' and r['bbv_distance'] == '0.800000' for r in rows)
		assert [r['share_error'] for r in rows] == ['0.240000', '0.160000', '-0.200000', '-0.200000']
		assert rows[0]['summary'].startswith('thread 7: block share error max 0.240000')
	EOF
	# table: aligned, the summary the last line
	dcfg-regions --check -f table -s t.simpoints -w t.weights two.T.7.bb > table
	grep -qE '^    3  0x7f0000001000  libb\.so +0x1000 +10 +0\.0 +0\.200000 +0\.000000 +-0\.200000$' table
	[ "$(tail -n 1 table)" = "$(sed -n 's/^# //p' tsv | tail -n 1)" ]
}

@test "--max-distance: exit 1 above it, with the table written all the same; 0 at or below" {
	here
	answer '0 0\n' '1 0\n'
	# the distance is 0.8 (the test above)
	dcfg_regions --check --max-distance 0.5 -s t.simpoints -w t.weights two.T.7.bb
	[ "$status" -eq 1 ]
	[ "$(cat stderr)" = 'dcfg-regions: two.T.7.bb: thread 7: the BBV distance 0.800000 is above --max-distance 0.5' ]
	[ "$(grep -c '^[1-4]	' stdout)" -eq 4 ]
	dcfg_regions --check --max-distance 0.9 -s t.simpoints -w t.weights -o out.tsv two.T.7.bb
	[ "$status" -eq 0 ] && [ ! -s stderr ]
	tail -n 1 out.tsv | grep -q 'BBV distance 0.800000'
	# to a file: written whole, and the status still 1
	dcfg_regions --check --max-distance 0 -s t.simpoints -w t.weights -o out2.tsv two.T.7.bb
	[ "$status" -eq 1 ]
	cmp out.tsv out2.tsv
	# one region per phase: distance 0, which no limit fails
	answer '1 0\n3 1\n' '0.6 0\n0.4 1\n'
	dcfg_regions --check --max-distance 0 -s t.simpoints -w t.weights two.T.7.bb
	[ "$status" -eq 0 ]
}

@test "usage: --check's formats and limits, and what it does not take" {
	here
	answer '0 0\n' '1 0\n'
	dcfg_regions --check -f sde-control -s t.simpoints -w t.weights two.T.7.bb
	[ "$status" -eq 2 ]
	[ "$(head -n 1 stderr)" = 'dcfg-regions: --format sde-control: with --check, tsv, csv, json or table' ]
	dcfg_regions -f tsv -s t.simpoints -w t.weights two.T.7.bb
	[ "$status" -eq 2 ]
	[ "$(head -n 1 stderr)" = 'dcfg-regions: --format tsv: csv, looppoint-json or sde-control' ]
	dcfg_regions --check --warmup-factor 2 -s t.simpoints -w t.weights two.T.7.bb
	[ "$status" -eq 2 ]
	[ "$(head -n 1 stderr)" = 'dcfg-regions: --warmup-factor with --check: warmup regions are not in the projection' ]
	dcfg_regions --max-distance 0.1 -s t.simpoints -w t.weights two.T.7.bb
	[ "$status" -eq 2 ]
	[ "$(head -n 1 stderr)" = 'dcfg-regions: --max-distance is a limit of --check' ]
	for d in 2.5 -1 x 1e-3 '' nan; do
		dcfg_regions --check --max-distance "$d" -s t.simpoints -w t.weights two.T.7.bb
		[ "$status" -eq 2 ]
		[ "$(head -n 1 stderr)" = "dcfg-regions: --max-distance $d: a BBV distance, 0 to 2" ]
	done
	dcfg_regions --help
	grep -q -- '--check' stdout
	grep -q -- '--max-distance D' stdout
}

@test "errors in the inputs are the CSV's: --check reads and checks them the same" {
	here
	answer '5 0\n' '1 0\n'
	dcfg_regions --check -s t.simpoints -w t.weights two.T.7.bb
	expect_error "dcfg-regions: t.simpoints:1:1: slice 5 is past the profile's last (two.T.7.bb has 5 slices, from 0)"
	answer '0 0\n' '1 0\n'
	sed 's/^G: \/usr\/bin\/two LowAddress: 0x400000/G: \/usr\/bin\/two LowAddress: 400000/' two.T.7.bb > badg.bb
	dcfg_regions --check -s t.simpoints -w t.weights badg.bb
	expect_error "dcfg-regions: badg.bb:5:29: not an image's low address (0x...)"
	sed 's/^G: \/usr\/bin\/two LowAddress:/G: \/usr\/bin\/two Low:/' two.T.7.bb > badg.bb
	dcfg_regions --check -s t.simpoints -w t.weights badg.bb
	expect_error 'dcfg-regions: badg.bb:5:1: G: PATH LowAddress: 0xLOW LoadOffset: 0xOFFSET expected'
	# the regions alone never read the G: lines
	dcfg_regions -s t.simpoints -w t.weights badg.bb
	[ "$status" -eq 0 ]
}

@test "names: escaped as the tables escape them, one row a line; no Block id or G: line, '-'" {
	here
	# a library whose path holds a tab, a newline and a comma (escaped in the profile)
	sed 's|/lib/libb.so|/lib/li\\tb\\n,so|g' two.T.7.bb > names.bb
	answer '0 0\n' '1 0\n'
	dcfg_regions --check -s t.simpoints -w t.weights names.bb
	[ "$status" -eq 0 ]
	grep -qxF "$(row 3 0x7f0000001000 'li\tb\n,so' 0x1000 10 0.0 0.200000 0.000000 -0.200000)" stdout
	[ "$(wc -l < stdout)" -eq 14 ]
	dcfg-regions --check -f csv -s t.simpoints -w t.weights names.bb | grep -cF ',"li\tb\n,so",' | grep -qx 2
	# another writer's profile: no G: lines, no Block id line for block 2
	# (the markers need the others'): blocks by address, or by number alone
	grep -v -e '^Block id: 2 ' -e '^G:' two.T.7.bb > bare.bb
	dcfg_regions --check -s t.simpoints -w t.weights bare.bb
	grep -qx "$(row 2 - - - 12 20.0 0.240000 0.400000 0.160000)" stdout
	grep -qx "$(row 3 0x7f0000001000 - - 10 0.0 0.200000 0.000000 -0.200000)" stdout
	# the largest error's block is named by its address where it has one
	tail -n 1 stdout | grep -q ' max 0.240000 (block 1 at 0x401000), BBV distance 0.800000'
	grep -v -e '^Block id: 1 ' two.T.7.bb > bare1.bb
	printf '3 0\n' > t.simpoints
	dcfg_regions --check -s t.simpoints -w t.weights bare1.bb
	# slice 3 alone: (0, 0, 25, 25) against the run: errors -0.36, -0.24, +0.3, +0.3
	tail -n 1 stdout | grep -q ' max 0.360000 (block 1), BBV distance 1.200000'
}

@test "images: a block is in the image loaded nearest at or below its address" {
	here
	# libb.so loaded at block 3's own address, and another image at block 4's
	sed -e 's|^G: /lib/libb.so LowAddress: 0x7f0000000000 .*|G: /lib/libb.so LowAddress: 0x7f0000001000 LoadOffset: 0x0|' \
	    -e '$d' two.T.7.bb > images.bb
	printf 'G: /lib/o t h e r.so LowAddress: 0x7f0000001010 LoadOffset: 0x0\nEnd of bb\n' >> images.bb
	answer '0 0\n' '1 0\n'
	dcfg_regions --check -s t.simpoints -w t.weights images.bb
	grep -qx "$(row 3 0x7f0000001000 libb.so 0x0 10 0.0 0.200000 0.000000 -0.200000)" stdout
	# a path of several words (another writer's G: line), joined by a space
	grep -qx "$(row 4 0x7f0000001010 'o t h e r.so' 0x0 10 0.0 0.200000 0.000000 -0.200000)" stdout
	grep -qx "$(row 1 0x401000 two 0x1000 18 30.0 0.360000 0.600000 0.240000)" stdout
}

# t/data/regions-check/phases.dcfg.json, process 9, one thread: main
# (blocks 10, 11, 12 of 2, 1, 1 instructions at 0x400000, +0x10, +0x20)
# calls phase_a (block 20 of 4, a loop run 10 times, then 21 of 1), then
# phase_b (block 30 of 3, 10 times, then 31 of 2); phases.stream walks it
# once: 2 + 40 + 1 + 1 + 30 + 2 + 1 = 77 instructions. main has 4, phase_a
# 41, phase_b 32. The profile's dimensions are the blocks in the order the
# thread first ran them: 10 1, 20 2, 21 3, 11 4, 30 5, 31 6, 12 7. Slices
# of 12 (dcfg-profile ends one at the first block end at or past 12), by
# node (and as the T lines write them, by dimension):
#   slice 0  10:2 20:12              T:1:2 :2:12              14   (10, then 20 three times)
#   slice 1  20:12                   T:2:12                   12
#   slice 2  20:12                   T:2:12                   12
#   slice 3  11:1 20:4 21:1 30:6     T:2:4 :3:1 :4:1 :5:6     12   (20's last, 21, 11, 30 twice)
#   slice 4  30:12                   T:5:12                   12
#   slice 5  30:12                   T:5:12                   12
#   slice 6  12:1 31:2               T:6:2 :7:1                3
@test "routines with --dcfg, by hand: the DCFG's routines of the profile's blocks, their shares and errors" {
	here
	dcfg-profile -d phases.dcfg.json --slice-size 12 -o phases phases.stream
	grep '^T' phases.T.0.bb > got
	printf '%s\n' 'T:1:2 :2:12' 'T:2:12' 'T:2:12' 'T:2:4 :3:1 :4:1 :5:6' 'T:5:12' \
	    'T:5:12' 'T:6:2 :7:1' | diff - got
	# labels: slices 0-2 cluster 0 (38 instructions), 3-6 cluster 1 (39);
	# SimPoint's choice slice 1 and slice 4. Multipliers 38/77 x 7 and
	# 39/77 x 7: the projection is 7/77 x (38 x 12 of block 20 + 39 x 12 of
	# block 30), 84 instructions in all (count error 7/77 = 0.090909), and
	# the projected shares are 38/77 for block 20 (phase_a) and 39/77 for
	# block 30 (phase_b). Routines: main 0 against 4/77: -0.051948;
	# phase_a 38/77 against 41/77: -3/77 = -0.038961; phase_b 39/77 against
	# 32/77: +7/77 = 0.090909, the largest; their distance 14/77 = 0.181818.
	# Blocks: 30 is +9/77 = 0.116883 (39/77 - 30/77), the largest, and the
	# only one above 0, so the BBV distance is 18/77 = 0.233766; it is named
	# by its dimension, 5, and its address.
	answer '1 0\n4 1\n' '0.428571 0\n0.571429 1\n' '0 0\n0 0\n0 0\n1 0\n1 0\n1 0\n1 0\n'
	dcfg_regions --check -s t.simpoints -w t.weights -l t.labels --dcfg phases.dcfg.json phases.T.0.bb
	[ "$status" -eq 0 ] && [ ! -s stderr ]
	sed -n '/^# table routines$/,$p' stdout > routines
	expect=$(cat <<-EOF
		# table routines
		# instructions 77
		# projected_instructions 84.0
		# instruction_count_error 0.090909
		# bbv_distance 0.233766
		# block_share_error_max 0.116883
		# routine_distance 0.181818
		# routine_share_error_max 0.090909
		# routine	name	instructions	projected_instructions	true_share	projected_share	share_error
		$(row 20 phase_a 41 41.5 0.532468 0.493506 -0.038961)
		$(row 30 phase_b 32 42.5 0.415584 0.506494 0.090909)
		$(row 10 main 4 0.0 0.051948 0.000000 -0.051948)
		# summary thread 0: block share error max 0.116883 (block 5 at 0x400200), BBV distance 0.233766, instruction count error 0.090909, routine share error max 0.090909 (phase_b), routine distance 0.181818
	EOF
	)
	[ "$(cat routines)" = "$expect" ] || { diff <(echo "$expect") routines; false; }
	# the blocks' section has the routines' figures too, and its rows are as without --dcfg
	dcfg-regions --check -s t.simpoints -w t.weights -l t.labels phases.T.0.bb |
	    grep -v '^# summary' | grep -v '^# routine' > plain
	sed '/^# thread 0$/,$!d' stdout | sed '2,$ { /^# thread 0$/,$d }' | grep -v '^# routine' > blocks
	sed -n '2,$p' plain | diff - blocks
	# the model agrees
	dcfg-regions --check -f json -s t.simpoints -w t.weights -l t.labels --dcfg phases.dcfg.json phases.T.0.bb > c.json
	python3 "$MODEL" --dcfg phases.dcfg.json c.json phases.T.0.bb t.simpoints t.weights t.labels
	# every region in main's place: main gets all, the others nothing
	answer '6 0\n' '1 0\n'
	dcfg_regions --check -s t.simpoints -w t.weights --dcfg phases.dcfg.json phases.T.0.bb
	# slice 6 is the last: 3 instructions, main 1 (block 12) and phase_b 2 (31):
	# shares 1/3 and 2/3 against 4/77 and 32/77, phase_a 0 against 41/77
	grep -qx "$(row 20 phase_a 41 0.0 0.532468 0.000000 -0.532468)" stdout
	grep -qx "$(row 10 main 4 7.0 0.051948 0.333333 0.281385)" stdout
}

@test "--dcfg: a block the DCFG does not have, or cannot place, is an error" {
	here
	dcfg-profile -d phases.dcfg.json --slice-size 12 -o phases phases.stream
	answer '1 0\n4 1\n' '0.428571 0\n0.571429 1\n'
	# block 21's Block id line (dimension 3) moved inside block 20
	sed 's/^Block id: 3 0x400110:/Block id: 3 0x40010e:/' phases.T.0.bb > moved.bb
	line=$(grep -n '^Block id: 3 ' moved.bb | cut -d: -f1)
	dcfg_regions --check -s t.simpoints -w t.weights --dcfg phases.dcfg.json moved.bb
	expect_error "dcfg-regions: moved.bb:$line:1: block 3 at 0x40010e: process 9 of phases.dcfg.json has no block there"
	# no Block id line for block 11 (dimension 4): nothing places it
	grep -v '^Block id: 4 ' phases.T.0.bb > noline.bb
	dcfg_regions --check -s t.simpoints -w t.weights --dcfg phases.dcfg.json noline.bb
	expect_error "dcfg-regions: noline.bb: block 4 of the T lines has no Block id line, which --dcfg needs to find it in phases.dcfg.json"
	# without --dcfg both are measured, blocks alone
	dcfg_regions --check -s t.simpoints -w t.weights noline.bb
	[ "$status" -eq 0 ]
}

@test "every slice its own cluster: the projection is the run, on dcfg-profile's profiles of t/data/sample" {
	local S="$DATA/sample" f n
	dcfg-expand "$S/prog.trace.json.bz2" |
	    dcfg-profile --dcfg "$S/prog.dcfg.json.gz" --slice-size 3000 -o prog
	for f in prog.T.*.bb; do
		n=$(grep -c '^T' "$f")
		# every slice a cluster of its own, of weight 1/n written with six
		# decimals (w): every multiplier is w x n, so every block's projected
		# share is its share of the run, and the projected instructions are
		# w x n times the run's: an instruction count error of w x n - 1
		awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) print i, i }' > t.simpoints
		awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "%.6f %d\n", 1 / n, i }' > t.weights
		awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) print i, 0 }' > t.labels
		dcfg-regions --check -s t.simpoints -w t.weights "$f" > check 2> /dev/null
		err=$(awk -v n="$n" 'BEGIN { w = sprintf("%.6f", 1 / n); printf "%.6f", w * n - 1 }')
		sed -n 's/^# summary //p' check | grep -qx "thread [0-9]*: block share error max 0.000000, BBV distance 0.000000, instruction count error $err"
		# every block of the profile is a row, with its instructions in all the T lines
		awk -F'[: ]' '/^T/ { for (i = 2; i < NF; i += 3) s[$i] += $(i + 1) }
		    END { for (b in s) print b, s[b] }' "$f" | sort -n > want
		awk -F'\t' '!/^#/ { print $1, $5 }' check | sort -n | diff want -
		# with the labels, a cluster's multiplier is its instructions over the
		# average slice's (REGIONS): slice i's is L_i x n / T, and the projection
		# adds up to n x sum(L_i^2) / T, which is T only when the slices are of
		# one length (here the last is not)
		dcfg-regions --check -s t.simpoints -w t.weights -l t.labels "$f" > check 2> /dev/null
		err=$(awk -F'[: ]' '/^T/ { l = 0; for (i = 3; i <= NF; i += 3) l += $i; s2 += l * l; t += l; n++ }
		    END { printf "%.6f", n * s2 / t / t - 1 }' "$f")
		[ "$err" != 0.000000 ]
		[ "$(sed -n 's/^# instruction_count_error //p' check)" = "$err" ]
	done
}

@test "gen-pair and t/data/sample with SimPoint's own answers: the table is the model's" {
	command -v simpoint > /dev/null ||
	    skip "SimPoint is absent: neither simpoint on the PATH nor ../shared/tools/simpoint/simpoint"
	local f d checked=0
	gen-pair --seed 5 --threads 2 --edges 20000 p > /dev/null
	dcfg-profile -d p/prog.dcfg.json --slice-size 1000 --thread 0 -o gp.T.0.bb p/prog.edges
	dcfg-profile -d p/prog.dcfg.json --slice-size 700 --loop-aligned --thread 1 -o gl.T.1.bb p/prog.edges
	dcfg-expand "$DATA/sample/prog.trace.json.bz2" |
	    dcfg-profile --dcfg "$DATA/sample/prog.dcfg.json.gz" --slice-size 2000 --thread 1 -o sp.T.1.bb
	for f in gp.T.0.bb gl.T.1.bb sp.T.1.bb; do
		simpoint -loadFVFile "$f" -maxK 4 -saveSimpoints t.simpoints \
		    -saveSimpointWeights t.weights -saveLabels t.labels > log 2>&1 || { cat log; false; }
		[ "$(wc -l < t.simpoints)" -ge 2 ]
		# without the labels: the weights' multipliers, the blocks alone
		dcfg-regions --check -f json -s t.simpoints -w t.weights "$f" > w.json 2> /dev/null
		python3 "$MODEL" w.json "$f" t.simpoints t.weights
		# with them, and the routines of the DCFG the profile is of
		case "$f" in sp.*) d=$DATA/sample/prog.dcfg.json.gz ;; *) d=p/prog.dcfg.json ;; esac
		dcfg-regions --check -f json -s t.simpoints -w t.weights -l t.labels --dcfg "$d" "$f" > r.json 2> /dev/null
		[ "$(jq '.tables | length' r.json)" -eq 2 ]
		python3 "$MODEL" --dcfg "$d" r.json "$f" t.simpoints t.weights t.labels
		checked=$((checked + 1))
	done
	[ "$checked" -eq 3 ]
}

@test "the model fails a table that is wrong (the second method can tell)" {
	cp "$DATA"/regions/* .
	dcfg-regions --check -f json -s t.simpoints -w t.weights -l t.labels prog.T.3.bb > good.json
	python3 "$MODEL" good.json prog.T.3.bb t.simpoints t.weights t.labels
	# the labels' multipliers are not the weights': the model of one fails the other
	run python3 "$MODEL" good.json prog.T.3.bb t.simpoints t.weights
	[ "$status" -eq 1 ]
	[[ "$output" == *"bbv_distance: 0.194302, the model says 0.166"* ]]
	jq -c '.tables[0].rows[0].share_error += 0.00001' good.json > off.json
	run python3 "$MODEL" off.json prog.T.3.bb t.simpoints t.weights t.labels
	[ "$status" -eq 1 ]
}

@test "the real DCFG: a walk of its edges, each thread profiled, SimPoint's answer checked against the model" {
	REAL="$BATS_TEST_DIRNAME/../../shared/real/omp-dijkstra-8threads.dcfg.json"
	[ -f "$REAL" ] ||
	    skip "the real DCFG ../shared/real/omp-dijkstra-8threads.dcfg.json is absent (it is not part of the checkout)"
	command -v jq > /dev/null || skip "jq is not installed"
	command -v simpoint > /dev/null ||
	    skip "SimPoint is absent: neither simpoint on the PATH nor ../shared/tools/simpoint/simpoint"
	eval "$(sed -n '/^RJQ=/,/^}$/p' "$BATS_TEST_DIRNAME/real.bats")"
	eval "$(sed -n "/^WALK='/,/^# walk: /p; /^walk() {/,/^}$/p" "$BATS_TEST_DIRNAME/real.bats")"
	declare -F walk > /dev/null || { echo "real.bats has no walk"; return 1; }
	walk
	dcfg-profile -d "$REAL" --slice-size 5 -o real real.stream
	local f checked=0
	for f in real.T.*.bb; do
		simpoint -loadFVFile "$f" -maxK 3 -saveSimpoints t.simpoints \
		    -saveSimpointWeights t.weights -saveLabels t.labels > log 2>&1 || { cat log; false; }
		dcfg-regions --check -f json -s t.simpoints -w t.weights -l t.labels --dcfg "$REAL" "$f" > c.json 2> /dev/null
		python3 "$MODEL" --dcfg "$REAL" c.json "$f" t.simpoints t.weights t.labels
		checked=$((checked + 1))
	done
	[ "$checked" -eq 8 ]
}

# check_examples: each literal block of dcfg-regions(1)'s CHECK section
# whose first line is a command, its "$ " lines run in turn, their output
# (stdout and stderr) compared with the lines after them
@test "the man page's --check examples, run in t/data/regions-check" {
	local man="$BATS_TEST_DIRNAME/../man/man1/dcfg-regions.1" n=0
	here
	awk '/^\.Sh / { on = ($2 == "CHECK") } on && /^\.Bd -literal/ { b = 1; next }
	    on && /^\.Ed/ { b = 0; print "%%"; next }
	    b { gsub(/\\e/, "\\"); gsub(/\\&/, ""); print }' "$man" > blocks
	[ "$(grep -c '^%%$' blocks)" -eq 3 ]
	: > want
	: > script
	while IFS= read -r l; do
		case "$l" in
		%%)
			sh script > got 2>&1 || true
			diff want got
			n=$((n + 1)); : > want; : > script ;;
		'$ '*) printf '%s\n' "${l#\$ }" >> script ;;
		*) printf '%s\n' "$l" >> want ;;
		esac
	done < blocks
	[ "$n" -eq 3 ]
}
