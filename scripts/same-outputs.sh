#!/bin/sh
# Runs every command the same way with two builds and compares their
# outputs byte for byte: the proof that a refactoring changed nothing.
#
#   sh scripts/same-outputs.sh OLD_BIN NEW_BIN DCFG [TRACE]
#
# With a TRACE, the trace's commands too (expand, the stages, counts,
# convert --trace, encode). Prints one line per output, "same" or
# "DIFFERENT", and exits 1 if any differs; a command's exit status and its
# standard error count as its output.
set -u
[ $# -ge 3 ] || { echo "usage: sh scripts/same-outputs.sh OLD_BIN NEW_BIN DCFG [TRACE]" >&2; exit 2; }
old=$(cd "$1" && pwd) new=$(cd "$2" && pwd) dcfg=$3 trace=${4:-}
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
differ=0

# run NAME CMD...: CMD with $B standing for the build's bin directory
run() {
	name=$1; shift
	for side in old new; do
		eval "B=\$$side"
		mkdir -p "$work/$side/$name"
		( cd "$work/$side/$name" && B=$B sh -c "$*" > out 2> err; echo $? > status )
		sed "s|$B/||g" "$work/$side/$name/err" > "$work/$side/$name/err.n" &&
		    mv "$work/$side/$name/err.n" "$work/$side/$name/err"
	done
	status=$(cat "$work/new/$name/status")
	[ "$status" = 0 ] && status= || status=" (exit $status)"
	if diff -r "$work/old/$name" "$work/new/$name" > /dev/null; then
		echo "same       $name$status"
	else
		echo "DIFFERENT  $name"
		differ=1
	fi
	rm -rf "$work/old/$name" "$work/new/$name"
}

d=$(cd "$(dirname "$dcfg")" && pwd)/$(basename "$dcfg")
run info         '$B/dcfg-info -q "'"$d"'"'
run info-json    '$B/dcfg-info -q --json "'"$d"'"'
run check        '$B/dcfg-check -q "'"$d"'"'
run check-json   '$B/dcfg-check -q --json "'"$d"'"'
run edges-list   '$B/dcfg-edges -q --dcfg "'"$d"'" --list'
run blocks-list  '$B/dcfg-blocks -q --dcfg "'"$d"'" --list'
for by in edge block routine loop image type thread line file; do
	run "count-dcfg-$by" '$B/dcfg-count -q --dcfg "'"$d"'" --from-dcfg --by '$by
done
for to in callgrind webgrind dcpi; do
	run "convert-$to" '$B/dcfg-convert -q --to '$to' --dcfg "'"$d"'" --out-dir o'
done
run convert-threads '$B/dcfg-convert -q --to callgrind --separate-threads --dcfg "'"$d"'" --out-dir o'
for to in dot csi; do
	run "convert-$to" '$B/dcfg-convert -q --to '$to' --dcfg "'"$d"'" -o out.'$to
done
[ -n "$trace" ] || exit $differ

t=$(cd "$(dirname "$trace")" && pwd)/$(basename "$trace")
X='$B/dcfg-expand -q'
run trace-info   '$B/dcfg-info -q "'"$t"'"'
run trace-json   '$B/dcfg-info -q --json "'"$t"'"'
run check-trace  '$B/dcfg-check -q "'"$d"'" "'"$t"'"'
run expand       "$X \"$t\""
run expand-runs  "$X --runs \"$t\""
run expand-chunks "$X --chunks \"$t\""
run expand-list  "$X --list \"$t\""
run expand-count "$X --count \"$t\""
run expand-plan  "$X --plan 4 \"$t\""
run expand-align "$X --plan 3 --align 100000 --dcfg \"$d\" \"$t\""
run expand-window "$X --from-icount 1000 --to-icount 50000 \"$t\""
run expand-window-runs "$X --runs --from-icount 1000 --to-icount 50000 --dcfg \"$d\" \"$t\""
run stages       "$X \"$t\" | \$B/dcfg-edges -q --dcfg \"$d\" | \$B/dcfg-blocks -q --dcfg \"$d\""
run stages-runs  "$X --runs \"$t\" | \$B/dcfg-edges -q --dcfg \"$d\" | \$B/dcfg-blocks -q --dcfg \"$d\""
run stages-offsets "$X \"$t\" | \$B/dcfg-blocks -q --offsets --dcfg \"$d\""
run edges-type   "$X \"$t\" | \$B/dcfg-edges -q --type call,return --dcfg \"$d\""
for by in edge block routine loop image type thread line file; do
	run "count-$by"      "$X \"$t\" | \$B/dcfg-count -q --dcfg \"$d\" --by $by"
	run "count-runs-$by" "$X --runs \"$t\" | \$B/dcfg-count -q --dcfg \"$d\" --by $by"
done
run count-bbv      "$X \"$t\" | \$B/dcfg-count -q --dcfg \"$d\" --bbv 10000"
run count-bbv-runs "$X --runs \"$t\" | \$B/dcfg-count -q --dcfg \"$d\" --bbv 10000"
run shards-merge "i=0; $X --plan 3 \"$t\" | while read -r a; do i=\$((i + 1)); $X \$a \"$t\" | \$B/dcfg-count -q --dcfg \"$d\" --by routine > s\$i.tsv; done; \$B/dcfg-count -q --merge s*.tsv"
run convert-trace "\$B/dcfg-convert -q --to callgrind --dcfg \"$d\" --trace \"$t\" --out-dir o"
run encode       "$X \"$t\" | \$B/dcfg-encode -q --dcfg \"$d\""
run encode-runs  "$X --runs \"$t\" | \$B/dcfg-encode -q --dcfg \"$d\""
exit $differ
