#!/usr/bin/env bats
# dcfg-count's kinds (--by) and dcfg-convert's formats (--to) are each one
# table in lib/ (lib/count/bykind.c, lib/convert/convert.c): the option,
# --help and the refusal of an unknown name are made from it. Here they
# are checked against the lists the man pages keep by hand.

load test_helper

MAN="$BATS_TEST_DIRNAME/../man/man1"

# join LAST WORD...: "a, b, c LAST d", as a refusal lists them.
join() {
	local last=$1 out=$2
	shift 2
	while [ $# -gt 1 ]; do out="$out, $1"; shift; done
	[ $# -eq 1 ] && out="$out$last$1"
	printf '%s\n' "$out"
}

# help_list FILE OPTION NEXT: the words --help (in FILE) lists after OPTION, up to the line of
# NEXT, without what is said of each in parentheses.
help_list() {
	sed -n "/^  .*$2 /,/$3/p" "$1" | sed -e '$d' -e "s/^.*$2 *//" -e 's/^ *//' |
	    tr '\n' ' ' | sed -e 's/ ([^)]*)//g' -e 's/, */ /g' -e 's/ *$//'
}

@test "dcfg-count: the kinds of dcfg-count(1) are those --help names, --by takes and its refusal lists" {
	kinds=$(sed -n '/^\.Sh TABLES/,/^\.Sh /s/^\.It Cm \([a-z]*\)$/\1/p' "$MAN/dcfg-count.1" | tr '\n' ' ')
	kinds=${kinds% }
	[ "$kinds" = "edge block routine loop image type thread line file" ]
	dcfg-count --help > help
	[ "$(help_list help '--by KIND' '--top')" = "$kinds" ]
	grep -q -- '--by KIND        edge (default), block,' help
	zcat "$DATA/sample/prog.dcfg.json.gz" > prog.dcfg.json
	for k in $kinds; do
		dcfg-count --dcfg prog.dcfg.json --from-dcfg --by "$k" > out
		sed -n 1p out | grep -q "^# dcfg-count 1 by=$k dcfg="
		# every table's columns start with the kind's name
		grep -q "^# $k	" out
	done
	run dcfg-count --dcfg prog.dcfg.json --from-dcfg --by lines
	[ "$status" -eq 2 ]
	# shellcheck disable=SC2086
	[ "$output" = "dcfg-count: --by lines: not $(join ' or ' $kinds)" ]
}

@test "dcfg-count: the formats of dcfg-count(1) are those --help names, --format takes and its refusal lists" {
	formats=$(sed -n '/^\.Sh FORMATS/,/^\.Sh /s/^\.It Cm \([a-z]*\)$/\1/p' "$MAN/dcfg-count.1" | tr '\n' ' ')
	[ "${formats% }" = "tsv csv json table" ]
	dcfg-count --help | grep -q -- '-f, --format FORMAT  tsv (default), csv, json or table'
	run dcfg-count --dcfg "$DATA/count-prog.dcfg.json" --from-dcfg --format TSV
	[ "$status" -eq 2 ]
	[ "$output" = "dcfg-count: --format TSV: not tsv, csv, json or table" ]
	for f in $formats; do
		dcfg-count --dcfg "$DATA/count-prog.dcfg.json" --from-dcfg --format "$f" > /dev/null
	done
}

@test "dcfg-count --merge: a header that names a kind outside the table is refused" {
	printf '# dcfg-count 1 by=lines dcfg=00000000:0\n' > t1
	run dcfg-count --merge t1
	[ "$status" -eq 2 ]
	[ "$output" = 'dcfg-count: t1:1:1: the "# dcfg-count" line names an unknown kind' ]
}

@test "dcfg-convert: the formats of dcfg-convert(1) are those --help names, --to takes and its refusal lists" {
	formats=$(sed -n '/^\.Bl -tag -width callgrind/,/^\.El/s/^\.It Cm \([a-z]*\)$/\1/p' \
	    "$MAN/dcfg-convert.1" | tr '\n' ' ')
	formats=${formats% }
	[ "$formats" = "callgrind webgrind dcpi csi dot bolt" ]
	dcfg-convert --help > help
	[ "$(help_list help '--to FORMAT' '--dcfg')" = "$formats" ]
	for f in $formats; do
		# the format is known: the next thing missing is the DCFG
		run dcfg-convert --to "$f"
		[ "$status" -eq 2 ]
		[ "$output" = "dcfg-convert: --dcfg FILE is needed" ]
	done
	run dcfg-convert --to Dot --dcfg x
	[ "$status" -eq 2 ]
	# shellcheck disable=SC2086
	[ "$output" = "dcfg-convert: --to Dot: not a format ($(join ', ' $formats))" ]
}

# The tables stay the one list: computed over the sources, so that a second
# list coming back (a switch on the kinds, a string of the formats' names)
# fails here.
ROOT="$BATS_TEST_DIRNAME/.."

@test "no code outside lib/count/bykind.[ch] names a kind: it reads the kind's descriptor" {
	cd "$ROOT"
	grep -q 'DCFG_BY_LOOP\]' lib/count/bykind.c
	run sh -c "grep -rnoE 'DCFG_BY_[A-Z_]+' lib cmd | grep -v '^lib/count/bykind\.[ch]:' |
	    grep -vE ':DCFG_BY_(KINDS|DEFAULT)\$'"
	[ -z "$output" ]
}

@test "the formats' names are strings of lib/convert/convert.c alone, never a list of them" {
	formats=$(sed -n '/^\.Bl -tag -width callgrind/,/^\.El/s/^\.It Cm \([a-z]*\)$/\1/p' \
	    "$MAN/dcfg-convert.1")
	cd "$ROOT"
	for f in $formats; do
		run grep -rlF --include='*.[ch]' "\"$f\"" lib cmd t
		[ "$output" = "lib/convert/convert.c" ] || { echo "\"$f\" in: $output"; false; }
	done
	names=$(printf '%s|' $formats)
	run grep -rnE --include='*.[ch]' "\"[^\"]*(${names%|}), (${names%|})\\b" lib cmd t
	[ -z "$output" ]
}
