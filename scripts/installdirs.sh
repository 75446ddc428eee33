#!/bin/sh
# The directories `make install` makes under PREFIX, listed so that `make
# uninstall` removes those it made, once empty, and never one that was
# there before.
#
#   sh scripts/installdirs.sh make LIST PREFIX DIR...
#   sh scripts/installdirs.sh remove LIST [HANDOVER]
#
# Paths are the installed ones; DESTDIR, from the environment, goes in
# front of each. make: makes each DIR with its parents, and adds to the
# file LIST (in one of the DIRs) those of them at or under PREFIX that were
# not there. remove: removes LIST, then the directories it names, deepest
# first, that are empty; one not empty yet is added to the list HANDOVER,
# when there is one, to be removed with that list's (the Python package's
# directories are removed before the rest, and lib holds both).
set -eu

under() {
	case $1 in "$2" | "$2"/*) return 0 ;; esac
	return 1
}

case ${1-} in
make)
	list=$2
	prefix=${3%/}
	shift 3
	made=""
	for dir in "$@"; do
		d=${dir%/}
		while [ "$d" != / ] && [ "$d" != . ] && [ ! -d "${DESTDIR-}$d" ]; do
			if under "$d" "$prefix"; then
				made="$made$d
"
			fi
			d=$(dirname "$d")
		done
		mkdir -p "${DESTDIR-}$dir"
	done
	printf '%s' "$made" >> "${DESTDIR-}$list"
	;;
remove)
	list=$2
	handover=${3-}
	[ -f "${DESTDIR-}$list" ] || exit 0
	dirs=$(sort -u "${DESTDIR-}$list" | awk -F/ 'NF { print NF "\t" $0 }' | sort -k1,1nr | cut -f2-)
	rm -f "${DESTDIR-}$list"
	printf '%s\n' "$dirs" | while IFS= read -r d; do
		if [ -z "$d" ] || [ ! -d "${DESTDIR-}$d" ] || rmdir "${DESTDIR-}$d" 2>/dev/null; then
			continue
		fi
		if [ -n "$handover" ] && [ -f "${DESTDIR-}$handover" ]; then
			printf '%s\n' "$d" >> "${DESTDIR-}$handover"
		fi
	done
	;;
*)
	echo "usage: sh scripts/installdirs.sh make LIST PREFIX DIR... | remove LIST [HANDOVER]" >&2
	exit 2
	;;
esac
