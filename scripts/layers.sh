#!/bin/sh
# Checks that lib/ keeps its layers (README, Library): a file includes
# headers of its own group, of a lower group, or the public ones, never of
# a higher group or a sibling, and names any other group's header by its
# group. Within a group, no file's includes may reach back to it: a .c
# file that includes a header declaring what another .c file defines
# depends on that file, and two files that depend on each other, however
# far round, are one knot that cannot be read, tested or moved apart.
# Prints one line per crossing, and per knot, and exits 1 if there is any.
#
# Usage: scripts/layers.sh [-a] [ROOT]   (ROOT: the source tree, default .)
#   -a: also the knots of the groups that are still tangled (below)
all=
if [ "$1" = -a ]; then
	all=1
	shift
fi
cd "${1:-.}" || exit 2
# rank group; the public headers belong to the group that implements them.
ranks='
0 common  error.h
1 dcfg    dcfg.h
1 trace   trace.h
2 stream  stream.h
3 info
3 expand
3 count   count.h
3 encode
3 convert
3 check
3 profile
3 regions
4 cli
4 record
'
# Groups whose files still reach back to themselves: their knots are
# untangled one group at a time, and the group leaves this list.
tangled='check common convert encode expand info profile record regions stream trace'
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
layers=$?

# The knots. First what each file of lib/ includes by a bare name (I), what
# each .c file defines for others, a function or a table (D), and each
# name a header holds (N), comments and strings left out; then, per
# group, which .c files reach which, and the files that reach themselves.
find lib -name '*.[ch]' | sort | xargs awk '
FNR == 1 { state = 0; depth = 0; prev = "" }
{
	raw = $0
	if (state != 1 && match(raw, /^#[ \t]*include[ \t]*"[^"\/]*"/)) {
		name = substr(raw, RSTART, RLENGTH)
		sub(/^[^"]*"/, "", name)
		sub(/"$/, "", name)
		print "I", FILENAME, FNR, name
	}
	code = ""
	n = length(raw)
	for (i = 1; i <= n; i++) {
		c = substr(raw, i, 1)
		if (state == 1) {                     # a comment
			if (c == "*" && substr(raw, i + 1, 1) == "/") {
				state = 0
				i++
			}
			continue
		}
		if (state == 2 || state == 3) {       # a string, a character
			if (c == "\\")
				i++
			else if ((state == 2 && c == "\"") || (state == 3 && c == "\047"))
				state = 0
			continue
		}
		if (c == "/" && substr(raw, i + 1, 1) == "*") {
			state = 1
			i++
			c = " "
		} else if (c == "/" && substr(raw, i + 1, 1) == "/") {
			break
		} else if (c == "\"") {
			state = 2
			c = " "
		} else if (c == "\047") {
			state = 3
			c = " "
		}
		code = code c
	}
	if (code ~ /^#/)
		next
	if (FILENAME ~ /\.h$/) {
		while (match(code, /[A-Za-z_][A-Za-z0-9_]*/)) {
			print "N", FILENAME, substr(code, RSTART, RLENGTH)
			code = substr(code, RSTART + RLENGTH)
		}
		next
	}
	# style(9): a function definition names it in the first column, its type on the line before
	if (depth == 0 && match(code, /^[A-Za-z_][A-Za-z0-9_]*\(/) && prev ~ /^[A-Za-z_]/ &&
	    prev !~ /^static/ && prev !~ /[;{},)]$/)
		print "D", FILENAME, substr(code, 1, RLENGTH - 1)
	else if (depth == 0 && code ~ /^[A-Za-z_]/ && code !~ /^(static|typedef|extern)[ \t]/ &&
	    match(code, /[A-Za-z_][A-Za-z0-9_]*[ \t]*(\[[^]]*\])*[ \t]*=/)) {
		name = substr(code, RSTART, RLENGTH)
		sub(/[^A-Za-z0-9_].*/, "", name)
		print "D", FILENAME, name
	}
	t = code
	depth += gsub(/\{/, "", t)
	t = code
	depth -= gsub(/\}/, "", t)
	if (code ~ /[^ \t]/)
		prev = code
}' | awk -v tangled="$tangled" -v all="$all" '
function dir_of(p) { sub(/\/[^\/]*$/, "", p); return p }
function base(p) { sub(/^.*\//, "", p); return p }
function group_of(p,   f) { split(p, f, "/"); return f[2] }
# A reaches B: HOW is the line of A that starts the way, the header that
# names what B defines, and that name.
function reach(a, b, how) {
	if (!((a, b) in edge)) {
		edge[a, b] = how
		out[a] = out[a] " " b
	}
}
$1 == "I" {
	ni[$2]++
	inc[$2, ni[$2]] = dir_of($2) "/" $4
	inc_line[$2, ni[$2]] = $3
	next
}
$1 == "D" {
	if (!((dir_of($2), $3) in definer))
		definer[dir_of($2), $3] = $2
	cfile[$2] = 1
	next
}
$1 == "N" {
	if (!(($2, $3) in named)) {
		named[$2, $3] = 1
		nn[$2]++
		names[$2, nn[$2]] = $3
	}
	next
}
END {
	n = split(tangled, g, " ")
	for (i = 1; i <= n; i++)
		skip[g[i]] = !all
	for (a in ni)
		if (a ~ /\.c$/)
			cfile[a] = 1
	for (a in cfile) {
		if (skip[group_of(a)])
			continue
		# the headers A reaches, breadth first, each by the include of A that starts its way
		split("", seen)
		nq = 0
		for (i = 1; i <= ni[a]; i++) {
			h = inc[a, i]
			if (!(h in seen)) {
				seen[h] = inc_line[a, i] " \"" base(h) "\""
				q[++nq] = h
			}
		}
		for (qi = 1; qi <= nq; qi++) {
			h = q[qi]
			for (i = 1; i <= ni[h]; i++)
				if (!(inc[h, i] in seen)) {
					seen[inc[h, i]] = seen[h]
					q[++nq] = inc[h, i]
				}
			if (h ~ /\.c$/) {
				if (h != a)
					reach(a, h, seen[h] " " base(h) " itself")
				continue
			}
			for (i = 1; i <= nn[h]; i++)
				if ((dir_of(h), names[h, i]) in definer && definer[dir_of(h), names[h, i]] != a)
					reach(a, definer[dir_of(h), names[h, i]], seen[h] " " base(h) " " names[h, i])
		}
	}
	# the files in knots, each knot named once: its first file, and a shortest way round
	nc = 0
	for (a in cfile)
		if (!skip[group_of(a)])
			list[++nc] = a
	for (i = 2; i <= nc; i++)        # insertion sort: a few hundred names
		for (j = i; j > 1 && list[j - 1] > list[j]; j--) {
			t = list[j]; list[j] = list[j - 1]; list[j - 1] = t
		}
	for (i = 1; i <= nc; i++) {
		a = list[i]
		if (a in knotted)
			continue
		# breadth first from A: the way back to A, if there is one
		split("", from)
		split("", dist)
		nq = 1
		q[1] = a
		dist[a] = 0
		back = ""
		for (qi = 1; qi <= nq; qi++) {
			m = split(out[q[qi]], nx, " ")
			for (j = 1; j <= m; j++) {
				b = nx[j]
				if (b == a && back == "")
					back = q[qi]        # the nearest: the way round is shortest
				if (!(b in dist)) {
					dist[b] = dist[q[qi]] + 1
					from[b] = q[qi]
					q[++nq] = b
				}
			}
		}
		if (back == "")
			continue
		# the way: a, ..., back, a
		len = 0
		for (x = back; x != a; x = from[x])
			way[++len] = x
		way[++len] = a
		text = base(a)
		prev_f = a
		for (j = len - 1; j >= 0; j--) {
			next_f = j ? way[j] : a
			split(edge[prev_f, next_f], e, " ")
			if (prev_f == a)
				where = e[1] ": " e[2]
			text = text " -> " e[3] " (" e[4] ") -> " base(next_f)
			prev_f = next_f
		}
		# the rest of its knot: the files it reaches that reach it
		others = ""
		for (j = 1; j <= nc; j++) {
			b = list[j]
			if (b == a || !(b in dist) || b in knotted)
				continue
			if (reaches(b, a)) {
				knotted[b] = 1
				if (index(" " text " ", " " base(b) " ") == 0)
					others = others (others == "" ? "" : ", ") base(b)
			}
		}
		knotted[a] = 1
		printf "%s:%s: an include cycle: %s%s\n", a, where, text,
		    others == "" ? "" : "; in the same knot: " others
		bad = 1
	}
	exit bad
}
function reaches(b, a,   st, ns, vis, x, m, nx2, j) {
	ns = 1
	st[1] = b
	vis[b] = 1
	while (ns > 0) {
		x = st[ns--]
		m = split(out[x], nx2, " ")
		for (j = 1; j <= m; j++) {
			if (nx2[j] == a)
				return 1
			if (!(nx2[j] in vis)) {
				vis[nx2[j]] = 1
				st[++ns] = nx2[j]
			}
		}
	}
	return 0
}
'
cycles=$?
[ "$layers" -eq 0 ] && [ "$cycles" -eq 0 ]
