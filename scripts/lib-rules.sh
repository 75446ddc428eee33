#!/bin/sh
# Checks that nothing in lib/ ends the process (README, Library): no call
# of exit(), _exit(), _Exit(), quick_exit() or abort(). The library
# reports an error and the command's main decides the exit status. Calls
# are found in the code only: comments and strings are blanked first, so
# a comment may say "exit()". Prints FILE:LINE: CALL per call and exits 1
# if there is any, 2 if lib/ holds no source at all.
#
# Usage: scripts/lib-rules.sh [ROOT]   (ROOT: the source tree, default .)
cd "${1:-.}" || exit 2
files=$(find lib -name '*.[ch]' | sort)
[ -n "$files" ] || { echo "lib-rules.sh: no source under ${1:-.}/lib" >&2; exit 2; }
# shellcheck disable=SC2086
awk '
FNR == 1 { incomment = 0 }
{
	s = $0; code = ""
	while (s != "") {
		if (incomment) {
			i = index(s, "*/")
			if (i == 0) { s = ""; break }
			s = substr(s, i + 2); incomment = 0; code = code " "
			continue
		}
		c = substr(s, 1, 1); two = substr(s, 1, 2)
		if (two == "/*") { incomment = 1; s = substr(s, 3); continue }
		if (two == "//") break
		if (c == "\"" || c == "\047") {   # a string or a character: skip to its end
			q = c; s = substr(s, 2)
			while (s != "" && substr(s, 1, 1) != q)
				s = substr(s, substr(s, 1, 1) == "\\" ? 3 : 2)
			s = substr(s, 2); code = code " "
			continue
		}
		code = code c; s = substr(s, 2)
	}
	rest = code
	while (match(rest, /(^|[^A-Za-z0-9_.>$])(_?exit|_Exit|quick_exit|abort)[ \t]*\(/)) {
		call = substr(rest, RSTART, RLENGTH)
		sub(/^[^A-Za-z_]/, "", call); sub(/[ \t]*\($/, "", call)
		printf "%s:%d: %s()\n", FILENAME, FNR, call
		found = 1
		rest = substr(rest, RSTART + RLENGTH)
	}
}
END { exit found ? 1 : 0 }
' $files
