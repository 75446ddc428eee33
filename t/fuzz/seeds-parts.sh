#!/bin/sh
# Writes the seeds of the parts fuzz target (t/fuzz/fuzz-parts.c) into
# t/fuzz/seeds/parts, and the gen-pair DCFG it reads them with into
# t/fuzz/parts-prog.dcfg.json: the parts `dcfg-profile --part` writes for
# the shards of `dcfg-expand --plan N` (with and without --align and
# --runs, of the whole trace and of a selection), fixed, grid and LoopPoint's rules (these with
# their summaries' starts), --exclude-image, several threads, of the
# hand-written t/data/profile-nest (t/profile-merge.bats) and of a small
# gen-pair trace. ok-*: a plan's whole set of parts joined by "%%" lines,
# which merges; summary-*: a plan's summaries (LoopPoint's rule) joined,
# which merge into starts; part-*: one part alone (a plan of one merges, the others
# miss shards). With a second argument ONE, one run's profiles go there
# too, as ONE/SEED.T.<tid>.bb, so that a test can check that each ok-*
# seed merges into exactly them. Needs the build's commands and gen-pair
# on PATH. Run it again after editing: sh t/fuzz/seeds-parts.sh [DIR [ONE]]
set -eu
here=$(dirname "$0")
out=${1:-$here/seeds/parts}
one=${2:-}
data=$here/../data
mkdir -p "$out"
rm -f "$out"/ok-* "$out"/part-* "$out"/summary-*
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gen-pair --seed 3 --threads 3 --edges 2000 --blocks 40 --long-loops 20 "$tmp/gp" > /dev/null
[ -n "${1:-}" ] || cp "$tmp/gp/prog.dcfg.json" "$here/parts-prog.dcfg.json"
dcfg-encode --dcfg "$tmp/gp/prog.dcfg.json" "$tmp/gp/prog.edges" > "$tmp/gp.trace.json"
cp "$data/profile-nest.dcfg.json" "$tmp/nest.json"
# chunks of 3 edges, so that plans cut thread 0 between its slices
dcfg-encode --dcfg "$tmp/nest.json" --chunk-edges 3 "$data/profile-nest.stream" > "$tmp/nest.trace.json"

# seed NAME DCFG TRACE N "PLAN OPTIONS" "EXPAND OPTIONS" PROFILE OPTIONS...:
# ok-NAME, the parts of a plan of N (or fewer) joined; part-NAME-K, each part alone
# (the first, the last and one between).
seed() {
	name=$1 dcfg=$2 trace=$3 n=$4 planopts=$5 expandopts=$6 k=0
	shift 6
	rm -f "$tmp"/part.* "$tmp"/sum.* "$tmp/starts"
	dcfg-expand --plan "$n" $planopts "$trace" > "$tmp/plan"
	starts=
	case " $* " in
	*" --loop-aligned "*)   # LoopPoint's rule: the summaries and their starts first
		while read -r line; do
			k=$((k + 1))
			dcfg-expand --chunks $expandopts $line "$trace" |
			    dcfg-profile --dcfg "$dcfg" "$@" --summary -o "$tmp/sum.$k"
		done < "$tmp/plan"
		dcfg-profile --dcfg "$dcfg" --merge -o "$tmp/starts" "$tmp"/sum.*
		# the summaries joined, for the merge of summaries into starts
		j=1
		while [ $j -le $k ]; do
			[ $j -eq 1 ] || echo '%%'
			cat "$tmp/sum.$j"
			j=$((j + 1))
		done > "$out/summary-$name"
		starts="--starts $tmp/starts" k=0 ;;
	esac
	while read -r line; do
		k=$((k + 1))
		dcfg-expand --chunks $expandopts $line "$trace" |
		    dcfg-profile --dcfg "$dcfg" "$@" --part $starts -o "$tmp/part.$k"
	done < "$tmp/plan"
	n=$k k=1   # a plan may have fewer shards than asked for

	while [ $k -le "$n" ]; do
		[ $k -eq 1 ] || echo '%%'
		cat "$tmp/part.$k"
		case $k in 1|2|"$n") cp "$tmp/part.$k" "$out/part-$name-$k" ;; esac
		k=$((k + 1))
	done > "$out/ok-$name"
	if [ -n "$one" ]; then
		# one run of what the plan selected: its -p and -t
		sel=$(echo " $planopts" | sed 's/ --dcfg [^ ]*//; s/ --align [^ ]*//')
		dcfg-expand $expandopts $sel "$trace" | dcfg-profile --dcfg "$dcfg" "$@" -o "$one/ok-$name"
	fi
}

align="--dcfg $tmp/nest.json --align"
seed nest-1-fixed5 "$tmp/nest.json" "$tmp/nest.trace.json" 1 "" "" --slice-size 5
seed nest-3-fixed4 "$tmp/nest.json" "$tmp/nest.trace.json" 3 "" "" --slice-size 4
seed nest-5-fixed13 "$tmp/nest.json" "$tmp/nest.trace.json" 5 "" "" --slice-size 13
seed nest-4-align10 "$tmp/nest.json" "$tmp/nest.trace.json" 4 "$align 10" "" --slice-size 10
seed nest-2-loop5 "$tmp/nest.json" "$tmp/nest.trace.json" 2 "" "" --slice-size 5 --loop-aligned
seed nest-6-loop4 "$tmp/nest.json" "$tmp/nest.trace.json" 6 "" "" --slice-size 4 --loop-aligned
seed nest-3-loop-main5 "$tmp/nest.json" "$tmp/nest.trace.json" 3 "$align 5" "" --slice-size 5 \
    --loop-aligned --loop-image main
seed nest-3-grid-main5 "$tmp/nest.json" "$tmp/nest.trace.json" 3 "$align 5" "" --slice-size 5 \
    --loop-grid --loop-image main
seed nest-4-exclude5 "$tmp/nest.json" "$tmp/nest.trace.json" 4 "" "" --slice-size 5 \
    --exclude-image "$(printf 'spin\tlib.so')"
seed nest-2-runs4 "$tmp/nest.json" "$tmp/nest.trace.json" 2 "" "--runs" --slice-size 4 --loop-aligned
seed nest-3-select5 "$tmp/nest.json" "$tmp/nest.trace.json" 3 "-t 0 -t 2" "" --slice-size 5
align="--dcfg $tmp/gp/prog.dcfg.json --align"
seed gp-1-fixed1000 "$tmp/gp/prog.dcfg.json" "$tmp/gp.trace.json" 1 "" "" --slice-size 1000
seed gp-3-fixed700 "$tmp/gp/prog.dcfg.json" "$tmp/gp.trace.json" 3 "" "" --slice-size 700
seed gp-4-align500 "$tmp/gp/prog.dcfg.json" "$tmp/gp.trace.json" 4 "$align 500" "" --slice-size 500
seed gp-2-loop777 "$tmp/gp/prog.dcfg.json" "$tmp/gp.trace.json" 2 "" "" --slice-size 777 --loop-aligned
seed gp-5-align-loop600 "$tmp/gp/prog.dcfg.json" "$tmp/gp.trace.json" 5 "$align 600" "" \
    --slice-size 600 --loop-aligned
seed gp-4-grid700 "$tmp/gp/prog.dcfg.json" "$tmp/gp.trace.json" 4 "" "" --slice-size 700 --loop-grid
seed gp-3-runs-loop900 "$tmp/gp/prog.dcfg.json" "$tmp/gp.trace.json" 3 "" "--runs" --slice-size 900 \
    --loop-aligned
seed gp-3-exclude-libc800 "$tmp/gp/prog.dcfg.json" "$tmp/gp.trace.json" 3 "" "" --slice-size 800 \
    --exclude-image libc.so.6
seed gp-3-select-align400 "$tmp/gp/prog.dcfg.json" "$tmp/gp.trace.json" 3 "-t 2 -t 1 $align 400" "" \
    --slice-size 400
