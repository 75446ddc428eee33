#!/usr/bin/env bats
# The README as a new user follows it: every ```sh block runs as it is
# written, in the bundled sample's directory (a copy of t/data/sample, as
# the README tells the user to make), with the commands on the PATH.
# A block that cannot run here says why on the line before it,
#   <!-- not run by t/readme.bats: WHY -->
# or, for a block that names files the sample lacks, what this file does
# first, in the README for the reader to see:
#   <!-- t/readme.bats sets up: COMMANDS -->
# A block passes when it exits 0 (bash -e -o pipefail, so a failing first
# stage of a pipeline fails it) and writes nothing but notes on standard
# error.

load test_helper

README="$BATS_TEST_DIRNAME/../README.md"

# split_readme DIR: each fenced block of the README as DIR/N (its text)
# and DIR/N.info: its line, its language, its section and the marker line
# before it ("-" for none), tab-separated.
split_readme() {
	mkdir -p "$1"
	awk -v dir="$1" '
		/^## / { section = substr($0, 4) }
		!inside && /^```/ {
			inside = 1
			n++
			mark = prev ~ /^<!-- .* -->$/ ? prev : "-"
			printf "%d\t%s\t%s\t%s\n", NR, substr($0, 4), section, mark > (dir "/" n ".info")
			printf "" > (dir "/" n)
			next
		}
		inside && /^```$/ { inside = 0; next }
		inside { print > (dir "/" n) }
		{ prev = $0 }
		END { if (inside) { print "README: a block is not closed" > "/dev/stderr"; exit 1 } }
	' "$README"
}

# field N FILE.info
field() {
	cut -f "$1" "$2"
}

# run_section SECTION: runs, each in a fresh copy of the sample, the blocks
# of the README's SECTION that are not marked as not run here.
run_section() {
	local info n block ran=0
	split_readme blocks
	for info in blocks/*.info; do
		[ "$(field 3 "$info")" = "$1" ] && [ "$(field 2 "$info")" = sh ] || continue
		case $(field 4 "$info") in "<!-- not run by t/readme.bats: "*) continue ;; esac
		n=${info%.info}
		block="$PWD/$n"
		rm -rf sample
		cp -r "$DATA/sample" sample
		(
			cd sample || exit 2
			setup=$(field 4 "$PWD/../$info" | sed -n 's/^<!-- t\/readme.bats sets up: \(.*\) -->$/\1/p')
			[ -z "$setup" ] || bash -e -c "$setup" || exit 2
			bash -e -o pipefail "$block" > ../out 2> ../err
		) || {
			status=$?
			echo "README line $(field 1 "$info"): the block failed (status $status):"
			cat "$block"
			echo "its standard error:"
			cat err
			return 1
		}
		# a note (dcfg-check(1), dcfg-regions(1)) tells of a fact, not a fault
		! grep -v '^[a-z-]*: note: ' err > faults || {
			echo "README line $(field 1 "$info"): the block wrote on standard error:"
			cat "$block" faults
			return 1
		}
		ran=$((ran + 1))
	done
	[ "$ran" -gt 0 ] || { echo "no block of $1 ran"; return 1; }
}

@test "every code block of the README is run here, or by the test its marker names, or says why not" {
	split_readme blocks
	blocks=0 runnable=0
	for info in blocks/*.info; do
		blocks=$((blocks + 1))
		mark=$(field 4 "$info")
		case $mark in
		"<!-- not run by t/readme.bats: "?*" -->")
			;;
		"<!-- python example: t/python.bats runs it"*)
			[ "$(field 2 "$info")" = python ]
			grep -q "python example" "$BATS_TEST_DIRNAME/python.bats"
			;;
		-|"<!-- t/readme.bats sets up: "?*" -->")
			[ "$(field 2 "$info")" = sh ] ||
			    { echo "README line $(field 1 "$info"): a $(field 2 "$info") block nothing runs"; false; }
			runnable=$((runnable + 1))
			# each is in a section a test below runs
			case $(field 3 "$info") in
			"Quick start"|"Shards: one trace on many cores or machines") ;;
			*) echo "README line $(field 1 "$info"): no test runs the blocks of $(field 3 "$info")"; false ;;
			esac
			;;
		*)
			echo "README line $(field 1 "$info"): a marker this test does not know: $mark"
			false
			;;
		esac
	done
	[ "$blocks" -ge 8 ] && [ "$runnable" -ge 4 ]
}

@test "README, Quick start: the pipelines run as written in the sample's directory" {
	command -v qemu-x86_64 > /dev/null || skip "qemu-x86_64 is not installed (make deps installs qemu-user)"
	command -v dot > /dev/null || skip "dot is not installed (make deps installs graphviz)"
	command -v callgrind_annotate > /dev/null || skip "callgrind_annotate is not installed (make deps installs valgrind)"
	command -v simpoint > /dev/null || skip "SimPoint is neither on the PATH nor in ../shared/tools/simpoint"
	run_section "Quick start"
}

@test "README, Shards: the recipes run as written in the sample's directory" {
	command -v parallel > /dev/null || skip "GNU parallel is not installed (make deps)"
	run_section "Shards: one trace on many cores or machines"
	# the last block's merged profiles, and the recipe's table before them
	[ -s sample/prog.T.0.bb ] && [ -s sample/prog.T.1.bb ]
}

@test "the sample's files are the ones the README's examples name" {
	split_readme blocks
	ls "$DATA/sample" > have
	cat blocks/[0-9]* | grep -o 'prog\.[a-z]*\.json[.a-z0-9]*' | sort -u > named
	diff -u have named
}
