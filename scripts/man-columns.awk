# Checks that a man page's ".Bl -column" tables render as tables: every row
# on one line of the rendered page, each cell but the last whole and apart
# from the next by at least one space, the last one's first word in place,
# and the line no wider than the page. Tables whose cells overflow their
# width run together under groff ("DIRECT_UNCONDITIONAL_BRANCHjmp") or wrap
# into a column of their own.
#
#   awk -v width=78 -f scripts/man-columns.awk PAGE RENDERED
#
# RENDERED is the page as mandoc(1) or groff(1) print it, overstriking
# removed (col -bx). Prints each row no line shows and exits 1; exits 2
# when a cell holds what this script does not know how to read.

function unknown(what) {
	printf "%s:%d: %s unknown to man-columns.awk\n", FILENAME, FNR, what > "/dev/stderr"
	bad = 2
}

# The page's escapes in a cell, turned back into what they print; "\e"
# first, held as \001, so that "\e&" stays "\&".
function unescape(s) {
	gsub(/\\e/, "\001", s)
	gsub(/\\\(aq/, "'", s)
	gsub(/\\-/, "-", s)
	gsub(/\\&/, "", s)
	if (index(s, "\\"))
		unknown("the escape in " s)
	gsub(/\001/, "\\", s)
	return s
}

# The cells of an .It line as a reader sees them, joined by tabs: the
# macros that only change the font dropped, Ns and Fl applied, closing
# punctuation attached to the word before.
function cells(line,    tok, n, i, t, row, cell, glue, pre) {
	sub(/^\.It[ \t]*/, "", line)
	if (index(line, "\""))
		unknown("a quoted argument")
	gsub(/\t/, " Ta ", line)
	n = split(line, tok, / +/)
	row = cell = pre = ""
	glue = 0
	for (i = 1; i <= n; i++) {
		t = tok[i]
		if (t == "")
			continue
		if (t == "Ta") {
			row = row cell "\t"
			cell = ""
			glue = 0
			continue
		}
		if (t ~ /^(Em|Sy|Li|No|Ar|Cm|Pa|Dv|Ev|Va|Ic|Fa)$/)
			continue
		if (t == "Ns") {
			glue = 1
			continue
		}
		if (t == "Fl") {
			pre = "-"
			continue
		}
		if (t == "Xr") {
			t = tok[i + 1] "(" tok[i + 2] ")"
			i += 2
		} else if (t ~ /^(Ad|An|Ap|At|Bsx|Bx|Cd|Dx|Er|Fr|Ft|Fx|Lk|Ms|Mt|Nm|Nx|Ox|Pf|Sx|Tn|Ux|Vt)$/ ||
		    t ~ /^(Aq|Bq|Brq|Dq|Op|Pq|Ql|Qq|Sq|Ac|Ao|Bc|Bo|Brc|Bro|Dc|Do|Ec|Eo|Oc|Oo|Pc|Po)$/ ||
		    t ~ /^(Qc|Qo|Sc|So|Xc|Xo|Bf|Ef|Fn|Fo|Fc|Sm|St)$/)
			unknown("the macro " t " in a table cell")
		t = pre unescape(t)
		pre = ""
		if (cell == "" || glue || t ~ /^[.,:;)?!]+$/)
			cell = cell t
		else
			cell = cell " " t
		glue = 0
	}
	return row cell
}

# Whether rendered line l shows row r.
function shows(l, r,    c, n, i, pos, w) {
	sub(/^ +/, "", l)
	if (length(l) > width)
		return 0
	n = split(r, c, "\t")
	pos = 1
	for (i = 1; i <= n; i++) {
		w = c[i]
		if (i == n)
			sub(/ .*/, "", w)
		if (substr(l, pos, length(w)) != w)
			return 0
		pos += length(w)
		if (i == n)
			return 1
		if (substr(l, pos, 1) != " ")
			return 0
		while (substr(l, pos, 1) == " ")
			pos++
	}
	return 1
}

BEGIN {
	if (width == "")
		width = 78
}

FNR == NR && /^\.Bl / {
	if (depth || $0 ~ /^\.Bl -column/)
		depth++
	next
}
FNR == NR && depth && /^\.El/ {
	depth--
	next
}
FNR == NR && depth && /^\.It/ {
	rows[++nrows] = cells($0)
	where[nrows] = FNR
	next
}
FNR == NR && depth && !/^\.\\"/ {
	unknown("a line of a column table that is not .It")
	next
}
FNR == NR {
	next
}

{
	rendered[++nlines] = $0
}

END {
	if (bad)
		exit bad
	for (r = 1; r <= nrows; r++) {
		found = 0
		for (l = 1; l <= nlines && !found; l++)
			found = shows(rendered[l], rows[r])
		if (!found) {
			gsub(/\t/, " | ", rows[r])
			printf "line %d: no line of %d columns shows the row: %s\n", where[r], width, rows[r]
			failed = 1
		}
	}
	exit failed
}
