#!/bin/sh
# Checks that lib/ keeps its layers (README, Library): a file includes
# headers of its own group, of a lower group, or the public ones, never of
# a higher group or a sibling, and names any other group's header by its
# group. Prints one line per crossing and exits 1 if there is any.
#
# Usage: scripts/layers.sh [ROOT]   (ROOT: the source tree, default .)
cd "${1:-.}" || exit 2
# rank group; the public headers belong to the group that implements them.
ranks='
0 common  error.h
1 dcfg    dcfg.h
1 trace   trace.h
2 stream  stream.h
3 info
3 expand
3 count
3 encode
3 convert
3 check
3 profile
3 regions
4 cli
4 record
'
find lib include -name '*.[ch]' | sort | while read -r file; do
	grep -n '^#[[:space:]]*include[[:space:]]*[<"]' "$file" |
	    sed "s|^|$file:|"
done | awk -v ranks="$ranks" '
BEGIN {
	n = split(ranks, row, "\n")
	for (i = 1; i <= n; i++) {
		if (split(row[i], f, " ") < 2)
			continue
		rank[f[2]] = f[1]
		if (f[3] != "")
			public[f[3]] = f[2]
	}
}
function group_of(path,   p) {
	if (path ~ /^include\/dcfg\//) {
		sub(/^include\/dcfg\//, "", path)
		return public[path]
	}
	split(path, p, "/")
	return p[2]
}
{
	file = $0; sub(/:.*/, "", file)
	line = $0; sub(/^[^:]*:/, "", line); lineno = line; sub(/:.*/, "", lineno)
	sub(/^[^:]*:/, "", line)
	from = group_of(file)
	if (match(line, /<dcfg\/[^>]*>/)) {
		to = public[substr(line, RSTART + 6, RLENGTH - 7)]
		what = substr(line, RSTART, RLENGTH)
	} else if (match(line, /"[^"]*"/)) {
		name = substr(line, RSTART + 1, RLENGTH - 2)
		what = "\"" name "\""
		if (name !~ /\//) {
			# a bare name: it must be a header of the same directory
			dir = file; sub(/\/[^\/]*$/, "", dir)
			if (system("test -f " dir "/" name) != 0) {
				printf "%s:%s: %s is not in %s: name its group\n", file, lineno, what, dir
				bad = 1
			}
			next
		}
		split(name, p, "/")
		to = p[1]
		if (!(to in rank)) {
			printf "%s:%s: %s: no group %s\n", file, lineno, what, to
			bad = 1
			next
		}
		if (to == from) {
			printf "%s:%s: %s is in its own group: include it by its bare name\n", file, lineno, what
			bad = 1
			next
		}
	} else
		next
	if (from == "" || to == "" || !(from in rank)) {
		printf "%s:%s: %s: group unknown (scripts/layers.sh ranks)\n", file, lineno, what
		bad = 1
		next
	}
	if (from != to && rank[to] >= rank[from]) {
		printf "%s:%s: %s: %s (layer %d) may not include %s (layer %d)\n", file, lineno, what, from, rank[from], to, rank[to]
		bad = 1
	}
}
END { exit bad }
'
