#!/bin/sh
# Writes the seeds of the looppoint fuzz target (t/fuzz/fuzz-looppoint.c)
# into t/fuzz/seeds/looppoint, and the two-process gen-pair DCFG it reads
# the odd ones with into t/fuzz/looppoint-two.dcfg.json: a line
# "# looppoint N K C A D" (slice size, shards less one, chunk edges,
# --align, DCFG),
# then an edge stream. route-*: the two routes compared, in the shapes of
# LoopPoint's rule over shards: slice sizes below, at and above the
# iterations, 1 to 6 shards, with and without --align, long runs of one
# loop head (a summary's "m" progression lines), a thread without loop
# heads (no "m" line), several threads, two processes (the summaries'
# and starts' "# process" sections, "process=all"). starts-*: the same
# followed by a line "%%" and the starts file the commands write for that
# plan, which each shard's --part --starts then reads (the mutator edits
# it). Needs the build's commands and gen-pair on PATH. Run it again
# after editing: sh t/fuzz/seeds-looppoint.sh [DIR]
set -eu
here=$(dirname "$0")
out=${1:-$here/seeds/looppoint}
data=$here/../data
mkdir -p "$out"
rm -f "$out"/route-* "$out"/starts-*
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the parts target's gen-pair program, and a copy of it as process 9 that ran thread 1 alone
gen-pair --seed 3 --threads 3 --edges 2000 --blocks 40 --long-loops 20 "$tmp/gp" > /dev/null
python3 -c '
import copy, json, sys
d = json.load(open(sys.argv[1]))
head, row = d["PROCESSES"][0], copy.deepcopy(d["PROCESSES"][1])
row[head.index("PROCESS_ID")] = 9
d["PROCESSES"].append(row)
json.dump(d, open(sys.argv[2], "w"))' "$tmp/gp/prog.dcfg.json" "$tmp/two.json"
[ -n "${1:-}" ] || cp "$tmp/two.json" "$here/looppoint-two.dcfg.json"
nest=$data/profile-nest.dcfg.json

# streams of profile-nest: the hand-written one; long runs of the loops at
# blocks 12 (3 instructions) and 30 (5), and a thread that enters no loop head
cp "$data/profile-nest.stream" "$tmp/nest"
{
	printf '%s\n' '# dcfg-stream 1' '# process 7' '# thread 0' 1 2 3
	i=0; while [ $i -lt 60 ]; do echo 4; i=$((i + 1)); done
	printf '%s\n' 5 6 3 4 4 5 7 8 '# thread 1' 17
	i=0; while [ $i -lt 40 ]; do echo 14; i=$((i + 1)); done
	printf '%s\n' 16 '# thread 2' 1
} > "$tmp/loops"
# gen-pair's: its three threads (some 2000 edges each), thread 1 alone, and two processes
cp "$tmp/gp/prog.edges" "$tmp/gp3"
awk '/^# thread 2$/ { exit } { print }' "$tmp/gp/prog.edges" > "$tmp/gp01"
{ cat "$tmp/gp01"; echo '# process 9'; sed -n '/^# thread 1$/,/^# thread 2$/p' "$tmp/gp/prog.edges" |
    grep -v '^# thread 2$' | head -n 800; } > "$tmp/two"

# seed NAME "N K C A D" STREAM [starts]
seed() {
	set -- "$1" $2 "$3" "${4:-}"
	name=$1 n=$2 k=$3 c=$4 a=$5 dd=$6 stream=$7 starts=$8
	# the target plans 1 + K % 6 shards
	{ echo "# looppoint $n $((k - 1)) $c $a $dd"; cat "$stream"; } > "$out/route-$name"
	[ -n "$starts" ] || return 0
	if [ "$dd" -eq 0 ]; then d=$nest; else d=$tmp/two.json; fi
	dcfg-encode --dcfg "$d" --chunk-edges "$c" "$stream" > "$tmp/trace"
	if [ "$a" -ne 0 ]; then align="--align $a --dcfg $d"; else align=; fi
	dcfg-expand --plan "$k" $align "$tmp/trace" > "$tmp/plan"
	rm -f "$tmp"/sum.*
	j=0
	while read -r line; do
		j=$((j + 1))
		dcfg-expand --chunks $line "$tmp/trace" |
		    dcfg-profile --dcfg "$d" --slice-size "$n" --loop-aligned --summary -o "$tmp/sum.$j"
	done < "$tmp/plan"
	dcfg-profile --dcfg "$d" --merge -o "$tmp/starts" "$tmp"/sum.*
	{ echo "# looppoint $n $((k - 1)) $c $a $dd"; cat "$stream"; echo '%%'; cat "$tmp/starts"; } > "$out/starts-$name"
}

seed nest-4-3 "4 3 3 0 0" "$tmp/nest" starts
seed nest-1-1 "1 1 1 0 0" "$tmp/nest"
seed nest-5-2 "5 2 3 0 0" "$tmp/nest" starts
seed nest-3-6 "3 6 1 0 0" "$tmp/nest"
seed nest-10-3-align5 "10 3 3 5 0" "$tmp/nest" starts
seed nest-7-4-align3 "7 4 2 3 0" "$tmp/nest"
seed nest-100-2 "100 2 1 0 0" "$tmp/nest"
seed loops-3-3 "3 3 5 0 0" "$tmp/loops" starts
seed loops-7-4 "7 4 7 0 0" "$tmp/loops"
seed loops-15-5 "15 5 11 0 0" "$tmp/loops" starts
seed loops-10-2-align9 "10 2 13 9 0" "$tmp/loops"
seed loops-1-6 "1 6 3 0 0" "$tmp/loops"
seed gp3-300-3 "300 3 50 0 1" "$tmp/gp3" starts
seed gp3-777-5 "777 5 63 0 1" "$tmp/gp3"
seed gp3-500-4-align100 "500 4 40 100 1" "$tmp/gp3" starts
seed gp01-1000-2 "1000 2 20 0 1" "$tmp/gp01"
seed two-400-3 "400 3 30 0 1" "$tmp/two" starts
seed two-900-6-align300 "900 6 25 300 1" "$tmp/two"
