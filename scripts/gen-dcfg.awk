# Writes a synthetic, deterministic DCFG (JSON, format 1.00, spec section 2)
# with n basic blocks and n edges to stdout, laid out like Intel's writer
# (one table row per line). For the benchmark; works with mawk and gawk.
#
#   awk -v n=1000000 -f scripts/gen-dcfg.awk > big.dcfg.json
#
# Shape: one process (2 threads), three images (the program at 0x400000,
# libc and ld.so at high 64-bit addresses) sharing the blocks 55/35/10 %.
# Each image is cut into routines of 16 consecutive blocks, each with one
# symbol; every 16th routine has a nested pair of loops and every 16th
# (offset by 8) a single loop. Block i falls through, branches, calls or
# returns to block i+1; loops add back edges. A graph of n blocks, START
# and END with only n edges cannot be connected, let alone have cycles,
# so to keep exactly n edges the edge into the next routine entry is left
# out once per back edge (and once more): those routines are entered from
# outside the recorded code. Edge counts conserve flow (in = out) at every
# block but those orphan entries and the blocks before them; COUNT of a block is the sum of its
# incoming edge counts (0 for the orphans), and the instruction counts
# are the sums of NUM_INSTRS * COUNT per thread.
#
# mawk's printf %d stops at 2^31-1: every %d below stays under it, larger
# numbers go through %.0f and load addresses are literal strings.

function nid(i) { return 1000 + i + 3 * int(i / 5) }     # gaps in the ids
function off(li) { return 4096 + li * 24 + int(li / 16) * 16 }
function bsize(i) { return 5 + (i * 7) % 19 }           # <= 23 < 24
function ninstr(i) { return 1 + int(bsize(i) / 4) }
function ba(s) { return 5 + s % 23 }                     # back edge out of s,
function bb(s) { return s % 3 }                          # per thread

# Execution count of block i per thread into LA, LB, with the back-edge
# counts leaving i into OA, OB. Call for i = 0, 1, ... in order (in each
# pass): it tracks the routine and the component's base count.
function level(i,   r, j, s) {
	if (i in entry) {
		CUR_R = entry[i]
		if (i == 0 || i in omit) { CA = 1 + (i * 37) % 101; CB = (i * 11) % 7 }
	}
	r = CUR_R; s = rfirst[r]; j = i - s
	LA = CA; LB = CB; OA = 0; OB = 0
	if (rloop[r] == 2) {
		if (j >= 2 && j <= 7) { LA += ba(s + 7); LB += bb(s + 7) }
		if (j >= 4 && j <= 5) { LA += ba(s + 5); LB += bb(s + 5) }
	} else if (rloop[r] == 1 && j >= 1 && j <= 3) {
		LA += ba(s + 3); LB += bb(s + 3)
	}
	if (i in backtgt) { OA = ba(i); OB = bb(i) }
}

function hex(v) { return sprintf("0x%x", v) }

BEGIN {
	if (n == "") n = 1000000
	n = int(n + 0)
	if (n < 1) n = 1

	names = "ENTRY EXIT BRANCH CONDITIONAL_BRANCH UNCONDITIONAL_BRANCH " \
	    "DIRECT_BRANCH INDIRECT_BRANCH DIRECT_CONDITIONAL_BRANCH " \
	    "INDIRECT_CONDITIONAL_BRANCH DIRECT_UNCONDITIONAL_BRANCH " \
	    "INDIRECT_UNCONDITIONAL_BRANCH REP FALL_THROUGH CALL DIRECT_CALL " \
	    "INDIRECT_CALL RETURN CALL_BYPASS SYSTEM_CALL SYSTEM_RETURN " \
	    "SYSTEM_CALL_BYPASS CONTEXT_CHANGE CONTEXT_CHANGE_RETURN " \
	    "CONTEXT_CHANGE_BYPASS EXCLUDED_CODE_BYPASS UNKNOWN"
	ntypes = split(names, tname, " ")
	for (t = 1; t <= ntypes; t++) T[tname[t]] = t

	# Images: blocks [ifirst[m], ifirst[m+1]).
	nimg = 3
	ifirst[1] = 0; ifirst[2] = int(n * 0.55); ifirst[3] = int(n * 0.9)
	ifirst[4] = n
	iload[1] = "0x400000"; iload[2] = "0x7f0000000000"
	iload[3] = "0x7ffff7fc3000"
	ifile[1] = 1; ifile[2] = 2; ifile[3] = 3
	isrc1[1] = 4; isrc2[1] = 5; isrc1[2] = 6; isrc2[2] = 7
	isrc1[3] = 8; isrc2[3] = 8
	iprefix[1] = "bench_fn_"; iprefix[2] = "__libc_fn_"
	iprefix[3] = "_dl_fn_"

	# Routines, loops and the edges left out.
	R = 0; debt = 1; L = 0; omitted = 0
	for (m = 1; m <= nimg; m++) {
		rfirstr[m] = R + 1
		for (s = ifirst[m]; s < ifirst[m + 1]; s += 16) {
			R++
			k = ifirst[m + 1] - s
			if (k > 16) k = 16
			rfirst[R] = s; rlen[R] = k; rimg[R] = m
			entry[s] = R
			if (R > 1 && debt > 0) { omit[s] = 1; debt--; omitted++ }
			lk = 0
			if (R % 16 == 2 && k >= 8) lk = 2
			else if (R % 16 == 10 && k >= 4) lk = 1
			rloop[R] = lk
			if (lk == 2) {
				backsrc[s + 2] = s + 7; backtgt[s + 7] = s + 2
				backsrc[s + 4] = s + 5; backtgt[s + 5] = s + 4
				debt += 2; L += 2
			} else if (lk == 1) {
				backsrc[s + 1] = s + 3; backtgt[s + 3] = s + 1
				debt += 1; L += 1
			}
		}
		rlastr[m] = R
	}
	# Debt left by loops in the last routines: take earlier entries.
	for (r = 2; r <= R && debt > 0; r++)
		if (!(rfirst[r] in omit)) { omit[rfirst[r]] = 1; debt--; omitted++ }
	nedges = 1 + (n - 1 - omitted) + L + 1
	if (nedges != n)
		printf("gen-dcfg: n=%d is too small for exactly n edges; " \
		    "writing %d\n", n, nedges) > "/dev/stderr"

	# Instruction counts per thread.
	t0 = 0; t1 = 0
	for (i = 0; i < n; i++) {
		level(i)
		if (i > 0 && i in omit) continue        # COUNT 0, see above
		t0 += ninstr(i) * LA; t1 += ninstr(i) * LB
	}

	printf("{\n\"MAJOR_VERSION\" : 1,\n\"MINOR_VERSION\" : 0,\n")
	printf("\"FILE_NAMES\" : [\n [ \"FILE_NAME_ID\", \"FILE_NAME\" ]")
	fn[1] = "\\/home\\/bench\\/bin\\/bench-app"
	fn[2] = "\\/lib\\/x86_64-linux-gnu\\/libc.so.6"
	fn[3] = "\\/lib64\\/ld-linux-x86-64.so.2"
	fn[4] = "\\/home\\/bench\\/src\\/main.c"
	fn[5] = "\\/home\\/bench\\/src\\/graph \\\"walk\\\".cpp"
	fn[6] = "\\/build\\/glibc\\/string\\/memcpy.S"
	fn[7] = "\\/build\\/glibc\\/stdio-common\\/vfprintf.c"
	fn[8] = "\\/build\\/glibc\\/elf\\/dl-lookup.c"
	for (f = 1; f <= 8; f++) printf(",\n [ %d, \"%s\" ]", f, fn[f])
	printf(" ],\n")

	printf("\"EDGE_TYPES\" : [\n [ \"EDGE_TYPE_ID\", \"EDGE_TYPE\" ]")
	for (t = 1; t <= ntypes; t++) printf(",\n [ %d, \"%s\" ]", t, tname[t])
	printf(" ],\n")

	printf("\"SPECIAL_NODES\" : [\n [ \"NODE_ID\", \"NODE_NAME\" ],\n")
	printf(" [ 1, \"START\" ],\n [ 2, \"END\" ] ],\n")

	printf("\"PROCESSES\" : [\n [ \"PROCESS_ID\", \"PROCESS_DATA\" ],\n")
	printf(" [ 13723,\n  { \"INSTR_COUNT\" : %.0f,\n", t0 + t1)
	printf("  \"INSTR_COUNT_PER_THREAD\" : [ %.0f, %.0f ],\n", t0, t1)
	printf("  \"IMAGES\" : [\n")
	printf("  [ \"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\" ]")

	for (m = 1; m <= nimg; m++) {
		first = ifirst[m]; cnt = ifirst[m + 1] - first
		isize = int((off(cnt) + 4096) / 4096) * 4096 + 4096
		printf(",\n  [ %d, \"%s\", %d,\n", m, iload[m], isize)
		printf("   { \"FILE_NAME_ID\" : %d,\n", ifile[m])

		printf("   \"SYMBOLS\" : [\n   [ \"NAME\", \"ADDR_OFFSET\", \"SIZE\" ]")
		for (r = rfirstr[m]; r <= rlastr[m]; r++) {
			ls = rfirst[r] - first; le = ls + rlen[r] - 1
			if (r == rfirstr[m] && m == 1) name = "_start"
			else if (r == rfirstr[m] + 1 && m == 1) name = "main"
			else if (r % 5 == 0)
				name = sprintf("_ZN5bench4walkILi%dEEvRKNS_5GraphE", r)
			else name = iprefix[m] r
			printf(",\n   [ \"%s\", \"%s\", %d ]", name, hex(off(ls)),
			    off(le) + bsize(first + le) - off(ls))
		}
		printf(" ],\n")

		printf("   \"SOURCE_DATA\" : [\n   [ \"FILE_NAME_ID\", \"LINE_NUM\", " \
		    "\"ADDR_OFFSET\", \"SIZE\", \"NUM_INSTRS\" ]")
		for (li = 0; li < cnt; li++) {
			i = first + li
			printf(",\n   [ %d, %d, \"%s\", %d, %d ]",
			    (int(li / 16) % 3 ? isrc1[m] : isrc2[m]),
			    10 + li % 16 + 20 * (int(li / 16) % 500), hex(off(li)),
			    bsize(i), ninstr(i))
		}
		printf(" ],\n")

		printf("   \"BASIC_BLOCKS\" : [\n   [ \"NODE_ID\", \"ADDR_OFFSET\", " \
		    "\"SIZE\", \"NUM_INSTRS\", \"LAST_INSTR_OFFSET\", \"COUNT\" ]")
		for (li = 0; li < cnt; li++) {
			i = first + li
			level(i)
			printf(",\n   [ %d, \"%s\", %d, %d, %d, %d ]", nid(i),
			    hex(off(li)), bsize(i), ninstr(i),
			    bsize(i) - 1 - i % 4, i > 0 && i in omit ? 0 : LA + LB)
		}
		printf(" ],\n")

		printf("   \"ROUTINES\" : [\n   [ \"ENTRY_NODE_ID\", " \
		    "\"EXIT_NODE_IDS\", \"NODES\", \"LOOPS\" ]")
		for (r = rfirstr[m]; r <= rlastr[m]; r++) {
			s = rfirst[r]; k = rlen[r]
			printf(",\n   [ %d, [ %d ],\n    [ [ \"NODE_ID\", " \
			    "\"IDOM_NODE_ID\" ],\n     [ %d, %d ]",
			    nid(s), nid(s + k - 1), nid(s), nid(s))
			for (j = 1; j < k; j++)
				printf(",\n     [ %d, %d ]", nid(s + j), nid(s + j - 1))
			printf(" ]")
			if (rloop[r] == 0) { printf(" ]"); continue }
			printf(",\n    [ [ \"LOOP_HEAD_NODE_ID\", " \
			    "\"LOOP_BACK_EDGE_SOURCE_NODE_IDS\", \"LOOP_NODE_IDS\", " \
			    "\"PARENT_LOOP_HEAD_NODE_ID\" ]")
			if (rloop[r] == 2) {
				printf(",\n     [ %d, [ %d ], [ %d", nid(s + 2),
				    nid(s + 7), nid(s + 2))
				for (j = 3; j <= 7; j++) printf(", %d", nid(s + j))
				printf(" ] ],\n     [ %d, [ %d ], [ %d, %d ], %d ] ] ]",
				    nid(s + 4), nid(s + 5), nid(s + 4), nid(s + 5),
				    nid(s + 2))
			} else
				printf(",\n     [ %d, [ %d ], [ %d, %d, %d ] ] ] ]",
				    nid(s + 1), nid(s + 3), nid(s + 1), nid(s + 2),
				    nid(s + 3))
		}
		printf(" ]\n   } ]")
	}
	printf(" ],\n")

	# Edges, with ids permuted over [1, M] (x -> 40503 x mod M is a
	# bijection for a power of two M).
	M = 1
	while (M < nedges) M *= 2
	printf("  \"EDGES\" : [\n  [ \"EDGE_ID\", \"SOURCE_NODE_ID\", " \
	    "\"TARGET_NODE_ID\", \"EDGE_TYPE_ID\", \"COUNT_PER_THREAD\" ]")
	e = 0
	level(0)
	printf(",\n  [ %d, 1, %d, %d, [ %d, %d ] ]", 1 + (e++ * 40503) % M,
	    nid(0), T["ENTRY"], LA, LB)
	for (i = 0; i < n; i++) {
		level(i)
		if (i + 1 < n && !((i + 1) in omit)) {
			if (!((i + 1) in entry)) {
				q = i % 4
				ty = q < 2 ? "FALL_THROUGH" : q == 2 ? \
				    "DIRECT_CONDITIONAL_BRANCH" : \
				    "DIRECT_UNCONDITIONAL_BRANCH"
			} else if (rimg[entry[i + 1]] != rimg[entry[i + 1] - 1])
				ty = "INDIRECT_CALL"
			else {
				q = entry[i + 1] % 3
				ty = q == 0 ? "DIRECT_CALL" : q == 1 ? "RETURN" : \
				    "INDIRECT_UNCONDITIONAL_BRANCH"
			}
			printf(",\n  [ %d, %d, %d, %d, [ %d, %d ] ]",
			    1 + (e++ * 40503) % M, nid(i), nid(i + 1), T[ty],
			    LA - OA, LB - OB)
		}
		if (i in backtgt)
			printf(",\n  [ %d, %d, %d, %d, [ %d, %d ] ]",
			    1 + (e++ * 40503) % M, nid(i), nid(backtgt[i]),
			    T["DIRECT_CONDITIONAL_BRANCH"], ba(i), bb(i))
	}
	printf(",\n  [ %d, %d, 2, %d, [ %d, %d ] ] ]\n", 1 + (e++ * 40503) % M,
	    nid(n - 1), T["EXIT"], LA - OA, LB - OB)
	printf("  } ]\n ]\n}\n")
}
