#!/usr/bin/env bats
# dcfg-profile on version 2 streams (dcfg-expand --runs): the same profile,
# byte for byte, as the plain stream gives, and a run of 10^9 copies
# without 10^9 steps. t/profile.bats describes t/data/profile-nest.

load test_helper

setup() {
	cd "$BATS_TEST_DIRNAME/data" || return 1
	NEST="$PWD/profile-nest.dcfg.json"
	cd "$BATS_TEST_TMPDIR" || return 1
}

# same DCFG PLAIN RUNS ARGS...: dcfg-profile ARGS -o p on the stream PLAIN
# and on RUNS, each copied to one name in a directory of its own, so that
# even the command lines match; the files must be the same, byte for byte.
same() {
	local dcfg=$1 plain=$2 runs=$3
	shift 3
	rm -rf plain.d runs.d
	mkdir plain.d runs.d
	cp "$plain" plain.d/s.stream
	cp "$runs" runs.d/s.stream
	(cd plain.d && dcfg-profile --dcfg "$dcfg" "$@" -o p s.stream 2> err) || { cat plain.d/err; return 1; }
	(cd runs.d && dcfg-profile --dcfg "$dcfg" "$@" -o p s.stream 2> err) || { cat runs.d/err; return 1; }
	ls plain.d/p.T.*.bb > /dev/null
	diff -r -x s.stream plain.d runs.d || { echo "differ: $*"; return 1; }
}

# wrap SEED: runs of 1 to 4 copies put in at random, nested up to 3 deep,
# around a version 1 stream's data lines (as t/count-runs.bats does); dcfg-unrun
# (t/tools) writes such a stream out copy by copy.
wrap() {
	awk -v seed="$1" 'BEGIN { srand(seed) }
	    NR == 1 { print "# dcfg-stream 2"; next }
	    /^#/ { for (; d > 0; d--) print "# end run"; print; next }
	    { while (d < 3 && rand() < 0.2) { print "# run " int(1 + 4 * rand()); d++ }
	      print
	      while (d > 0 && rand() < 0.3) { print "# end run"; d-- } }
	    END { for (; d > 0; d--) print "# end run" }'
}

@test "runs written by hand: the profile of the stream written out" {
	# thread 0 of profile-nest with 12's back edge as a run of 2, and 30's
	# loop, 14, as a run of 1 inside a run of 1
	printf '%s\n' '# dcfg-stream 2' '# process 7' '# thread 0' 1 2 3 '# run 2' 4 '# end run' 5 6 13 \
	    '# run 1' '# run 1' 14 '# end run' '# end run' 15 9 10 11 12 7 8 > runs.stream
	printf '%s\n' '# dcfg-stream 1' '# process 7' '# thread 0' 1 2 3 4 4 5 6 13 14 15 9 10 11 12 7 8 > plain.stream
	for n in 1 2 3 5 10 12 20 40 41; do
		same "$NEST" plain.stream runs.stream --slice-size "$n"
		same "$NEST" plain.stream runs.stream --slice-size "$n" --loop-aligned
	done
}

@test "random runs over the hand-written streams: the same profiles, every rule" {
	for seed in 1 2 3 4 5 6 7 8; do
		wrap "$seed" < "$BATS_TEST_DIRNAME/data/profile-nest.stream" > runs.stream
		grep -q '^# run ' runs.stream
		dcfg-unrun runs.stream > plain.stream
		for n in 1 2 3 4 5 7 10 13 40; do
			same "$NEST" plain.stream runs.stream -N "$n"
			same "$NEST" plain.stream runs.stream -N "$n" -L
			same "$NEST" plain.stream runs.stream -N "$n" -L --loop-image main
			same "$NEST" plain.stream runs.stream -N "$n" -x 'spin	lib.so'
		done
	done
}

@test "gen-pair --long-loops: dcfg-expand --runs and the plain stream give the same profiles" {
	gen-pair --seed 3 --threads 2 --edges 300000 --long-loops 500 p > /dev/null
	dcfg-encode --dcfg p/prog.dcfg.json p/prog.edges > p/prog.trace.json
	dcfg-expand --runs p/prog.trace.json > runs.stream
	dcfg-expand p/prog.trace.json > plain.stream
	[ "$(grep -c '^# run' runs.stream)" -gt 0 ]
	for n in 1 1000 100000; do
		same "$PWD/p/prog.dcfg.json" plain.stream runs.stream -N "$n"
	done
	for n in 3 5000; do
		same "$PWD/p/prog.dcfg.json" plain.stream runs.stream -N "$n" --loop-aligned
	done
	# random runs over the generated stream too
	wrap 5 < p/prog.edges > wrapped.stream
	dcfg-unrun wrapped.stream > unwrapped.stream
	for n in 7 10000; do
		same "$PWD/p/prog.dcfg.json" unwrapped.stream wrapped.stream -N "$n"
		same "$PWD/p/prog.dcfg.json" unwrapped.stream wrapped.stream -N "$n" -L
	done
}

@test "the sample pair: dcfg-expand --runs and the plain stream give the same profiles" {
	S="$BATS_TEST_DIRNAME/data/sample"
	dcfg-expand --runs "$S/prog.trace.json.bz2" > runs.stream
	dcfg-expand "$S/prog.trace.json.bz2" > plain.stream
	for n in 1 100 10000 1000000; do
		same "$S/prog.dcfg.json.gz" plain.stream runs.stream -N "$n"
		same "$S/prog.dcfg.json.gz" plain.stream runs.stream -N "$n" -L
	done
	[ -s plain.d/p.T.0.bb ] && [ -s plain.d/p.T.1.bb ]
}

@test "a run of 10^9 copies is added by whole copies, exactly" {
	# thread 0: 10@0 11@2 30@3, then 30 entered 10^9 times more at 3 + 5k
	# (k = 1..10^9), 12@5000000008 13@5000000011 14@5000000013, final 5000000014.
	# Grid 2*10^9: 5k + 3 >= 2*10^9 first at k = 4*10^8 (30's 400000001st
	# entry, at 2000000003); 4*10^9 at k = 8*10^8 (its 800000001st, 4000000003).
	#   [0, 2000000003):  10 2, 11 1, 30 x 4*10^8 = 2000000000
	#   [.., 4000000003): 30 x 4*10^8 = 2000000000
	#   [.., 5000000014): 30 x (10^9 - 8*10^8 + 1) = 200000001 x 5 = 1000000005, 12 3, 13 2, 14 1
	# Dimensions in the order of first entries: 10 1, 11 2, 30 3, 12 4, 13 5, 14 6.
	printf '%s\n' '# dcfg-stream 2' '# process 7' '# thread 0' 1 2 13 \
	    '# run 1000000000' 14 '# end run' 15 5 7 8 > huge.stream
	dcfg-profile --dcfg "$NEST" -N 2000000000 --thread 0 huge.stream > got
	cat > want <<-'EOF'
	S: 0x1000 1 /opt/my\x20prog/main 0x1000 + 0x0 # prog.c:5
	# Slice ending at 2000000003 global 2000000003
	# Unfiltered count 2000000003
	T:1:2 :2:1 :3:2000000000
	S: 0x8000 400000001 /lib/spin\tlib.so 0x8000 + 0x0 # /src/my\x20spin.c:2
	# Slice ending at 4000000003 global 4000000003
	# Unfiltered count 2000000000
	T:3:2000000000
	S: 0x8000 800000001 /lib/spin\tlib.so 0x8000 + 0x0 # /src/my\x20spin.c:2
	# Slice ending at 5000000014 global 5000000014
	# Unfiltered count 1000000011
	T:3:1000000005 :4:3 :5:2 :6:1
	S: 0x1014 1 /opt/my\x20prog/main 0x1000 + 0x14 # prog.c:9
	Dynamic instruction count 5000000014
	Dynamic unfiltered instruction count 5000000014
	SliceSize: 2000000000
	EOF
	sed -n '/^S: /,/^SliceSize: /p' got | diff want -
	grep -qx 'Block id: 3 0x8000:0x8008 static instructions: 5 block count: 1000000001 block size: 10' got
	# the same copies as 10^6 runs of 10^3: the same file
	printf '%s\n' '# dcfg-stream 2' '# process 7' '# thread 0' 1 2 13 \
	    '# run 1000000' '# run 1000' 14 '# end run' '# end run' 15 5 7 8 > huge.stream
	dcfg-profile --dcfg "$NEST" -N 2000000000 --thread 0 huge.stream | cmp got -
	# loops of main only: no boundary in the run; one at 12@5000000008
	dcfg-profile --dcfg "$NEST" -N 2000000000 -L --loop-image main --thread 0 huge.stream > got
	cat > want <<-'EOF'
	S: 0x1000 1 /opt/my\x20prog/main 0x1000 + 0x0 # prog.c:5
	# Slice ending at 5000000008 global 5000000008
	# Unfiltered count 5000000008
	T:1:2 :2:1 :3:5000000005
	S: 0x1008 1 /opt/my\x20prog/main 0x1000 + 0x8 # prog.c:7
	# Slice ending at 5000000014 global 5000000014
	# Unfiltered count 6
	T:4:3 :5:2 :6:1
	S: 0x1014 1 /opt/my\x20prog/main 0x1000 + 0x14 # prog.c:9
	Dynamic instruction count 5000000014
	Dynamic unfiltered instruction count 5000000014
	SliceSize: 2000000000
	EOF
	sed -n '/^S: /,/^SliceSize: /p' got | diff want -
}

@test "a run whose instructions pass 2^64 - 1 is an error, not a wrapped count" {
	printf '%s\n' '# dcfg-stream 2' '# process 7' '# thread 0' 1 2 13 \
	    '# run 18446744073709551615' 14 '# end run' 15 5 7 8 > over.stream
	capture dcfg-profile --dcfg "$NEST" -N 10 --thread 0 over.stream
	[ "$status" -eq 2 ]
	[ "$(cat stderr)" = "dcfg-profile: over.stream: process 7: a count does not fit in 64 bits" ]
	[ ! -s stdout ]
}
