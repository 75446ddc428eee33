# Prints the program of a man page's EXAMPLES section, its first
# ".Bd -literal" block, as C: the page's escapes turned back into what
# they stand for. Usage: awk -f scripts/man-example.awk man/man3/dcfg.3 > prog.c
# With -v block=N, the section's Nth such block (a session of a man1 page).
# Exits 1, printing nothing, when the page has no such block.

/^\.Sh / { in_examples = ($0 ~ /^\.Sh EXAMPLES[ \t]*$/) }

in_examples && !done && !in_block && /^\.Bd -literal/ { if (++seen == (block ? block : 1)) in_block = 1; next }

in_block && /^\.Ed[ \t]*$/ { in_block = 0; done = 1; next }

in_block {
	line = $0
	out = ""
	# One escape at a time, left to right, so that "\e&" stays "\&".
	while ((i = index(line, "\\")) > 0) {
		out = out substr(line, 1, i - 1)
		esc = substr(line, i + 1, 1)
		if (esc == "e")
			out = out "\\"
		else if (esc == "&")
			out = out ""
		else if (esc == "-")
			out = out "-"
		else if (substr(line, i + 1, 3) == "(aq") {
			out = out "'"
			line = substr(line, i + 4)
			continue
		} else {
			printf "%s:%d: escape \\%s unknown to man-example.awk\n", FILENAME, FNR, esc > "/dev/stderr"
			bad = 1
			out = out "\\" esc
		}
		line = substr(line, i + 2)
	}
	print out line
}

END {
	if (bad)
		exit 2
	if (!done) {
		printf "%s: no .Bd -literal block in EXAMPLES\n", FILENAME > "/dev/stderr"
		exit 1
	}
}
