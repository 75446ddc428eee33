#!/usr/bin/env bats
# dcfg-expand, as a user runs it.  Every expected edge list below was worked
# out by hand from the DCFG-trace spec (section 3) and dcfg-expand(1); the
# comments show the arithmetic.  The traces are written by hand: small ones
# inline, larger ones in t/data/trace-*.json.
#
# Modified Base64 (3.7.1.1), the characters used here:
#   A  0 000000   B  1 000001   C  2 000010   D  3 000011   F  5 000101
#   K 10 001010   W 22 010110   Y 24 011000   a 26 011010   b 27 011011
#   d 29 011101   g 32 100000   h 33 100001   j 35 100011   k 36 100100
#   m 38 100110   p 41 101001   s 44 101100   w 48 110000   0 52 110100
#   1 53 110101   2 54 110110   3 55 110111   4 56 111000   5 57 111001
#   6 58 111010   7 59 111011   8 60 111100   9 61 111101   + 62 111110
#   - 63 111111

load test_helper

# bit_edges BITS... (test_helper.bash): the edges bits_trace's table
# decodes from BITS.

# bits_trace FILE EDGE_COUNT SEQUENCE [DICTIONARY]: process 1, thread 0, one
# chunk [0, 0, EDGE_COUNT, 10, SEQUENCE] with the one-bit table
#   10 -"0"-> [10], 10 -"1"-> [11], 11 -"0"-> [10], 11 -"1"-> [11]
# so the edges after the first (10) spell the bit string, 0 -> 10, 1 -> 11.
# The sequence is on line 10 by itself: its opening quote is line 10, column 7.
bits_trace() {
	local dict='{}'
	[ $# -ge 4 ] && dict=$4
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "PROCESSES": [' \
	    '  ["PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA"],' \
	    "  [1, $dict," \
	    '   [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"],' \
	    '    [10, "0", [10]], [10, "1", [11]],' \
	    '    [11, "0", [10]], [11, "1", [11]]],' \
	    '   [["THREAD_ID", "TRACE_DATA"],' \
	    '    [0, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"],' \
	    "         [0, 0, $2, 10," \
	    "      \"$3\"]]]]]]}" > "$1"
}

# The start of the output of a bits_trace or example_trace file.
head1() {
	printf '# dcfg-stream 1\n# process 1\n# thread 0\n'
}

# The error prefix of the one chunk of a bits_trace or example_trace file.
SEQ1='PROCESSES[1].THREAD_DATA[1].TRACE_DATA[1].EDGE_ID_SEQUENCE: process 1 thread 0 chunk 0'

# example_trace FILE EDGE_COUNT FIRST_EDGE_ID SEQUENCE: the transition table
# of the spec's example in 3.5:
#   123 -"0"-> [124], 123 -"1"-> [125], 124 -""-> [456],
#   125 -"0"-> [543], 125 -"10"-> [542, 549], 125 -"11"-> [540, 541]
# and one chunk; the sequence's opening quote is line 10, column 7.
example_trace() {
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "PROCESSES": [' \
	    '  ["PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA"],' \
	    '  [1, {},' \
	    '   [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"],' \
	    '    [123, "0", [124]], [123, "1", [125]], [124, "", [456]],' \
	    '    [125, "0", [543]], [125, "10", [542, 549]], [125, "11", [540, 541]]],' \
	    '   [["THREAD_ID", "TRACE_DATA"],' \
	    '    [0, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"],' \
	    "         [0, 0, $2, $3," \
	    "      \"$4\"]]]]]]}" > "$1"
}

# ---------------------------------------------------------------------------
# The examples of the spec

@test "3.5 Example 1: from 123, the bits 110 give 123 125 542 549" {
	# "110" padded to six bits is 110000 = 48 = 'w'.
	# 123: codes "0" and "1", one bit: 1 -> 125.  125: "0", "10", "11": the
	# next bit 1 is no complete code, with the next, 0, it is "10" -> 542, 549.
	# That is 4 edges; the last three bits 000 are discarded.
	example_trace ex1.json 4 123 w
	dcfg_expand ex1.json
	{ head1; printf '%s\n' 123 125 542 549; } | expect_stdout
}

@test "3.5 Example 2: from 123, the bit 0 gives 123 124 456 (a code of zero bits)" {
	# "0" padded is 000000 = 'A'.  123: 0 -> 124.  124 has only the code "",
	# read no bits -> 456.
	example_trace ex2.json 3 123 A
	dcfg_expand ex2.json
	{ head1; printf '%s\n' 123 124 456; } | expect_stdout

	# from 124 no bits are needed at all: the empty sequence is enough
	example_trace empty.json 2 124 ''
	dcfg_expand empty.json
	{ head1; printf '%s\n' 124 456; } | expect_stdout
}

@test "3.5 table: the other codes of 125, and a group of edges cut short by EDGE_COUNT" {
	# 111000 = 56 = '4': 123 -1-> 125 -11-> 540, 541
	example_trace e.json 4 123 4
	dcfg_expand e.json
	{ head1; printf '%s\n' 123 125 540 541; } | expect_stdout
	# 100000 = 32 = 'g': 123 -1-> 125 -0-> 543
	example_trace e.json 3 123 g
	dcfg_expand e.json
	{ head1; printf '%s\n' 123 125 543; } | expect_stdout
	# 'w' again (110): 125 -10-> [542, 549], but EDGE_COUNT 3 stops after 542
	example_trace e.json 3 123 w
	dcfg_expand e.json
	{ head1; printf '%s\n' 123 125 542; } | expect_stdout
}

@test "3.7.1.1: C+ is the twelve bits 000010111110" {
	# C = 2 = 000010, + = 62 = 111110: 12 bits, 13 edges with the first
	bits_trace c.json 13 'C+'
	dcfg_expand c.json
	{ head1; echo 10; bit_edges 000010 111110; } | expect_stdout
	# only eleven bits needed: the final 0 is discarded
	bits_trace c.json 12 'C+'
	dcfg_expand c.json
	{ head1; echo 10; bit_edges 000010 11111; } | expect_stdout
	# written out: the first edge, then one edge per bit
	bits_trace c.json 13 'C+'
	dcfg_expand c.json
	printf '%s\n' '# dcfg-stream 1' '# process 1' '# thread 0' 10 \
	    10 10 10 10 11 10 11 11 11 11 11 10 | expect_stdout
}

@test "3.7.1.2: A(4*BC)D is ABCBCBCBCD" {
	# A 000000, B 000001, C 000010, D 000011: 10 characters, 60 bits
	bits_trace r.json 61 'A(4*BC)D'
	dcfg_expand r.json
	{ head1; echo 10; bit_edges 000000 \
	    000001 000010 000001 000010 000001 000010 000001 000010 \
	    000011; } | expect_stdout
}

@test "3.7.1.2: 123(2*(6*a)b)456 is 123aaaaaabaaaaaab456" {
	# 1 110101, 2 110110, 3 110111, a 011010, b 011011, 4 111000,
	# 5 111001, 6 111010: 20 characters, 120 bits
	bits_trace r.json 121 '123(2*(6*a)b)456'
	dcfg_expand r.json
	{ head1; echo 10; bit_edges 110101 110110 110111 \
	    011010 011010 011010 011010 011010 011010 011011 \
	    011010 011010 011010 011010 011010 011010 011011 \
	    111000 111001 111010; } | expect_stdout
}

# The dictionary of 3.4 and 3.7.1.3.
DICT_AB='{"a": "bks2hD7kB+KDk87(6*AB)Aw3ABD9", "b": "KkDk123(42*(25*a))45690D<a>7Fjdkpm"}'
# <a> is "bks2hD7kB+KDk87" (15 characters) "ABABABABABAB" (12) "Aw3ABD9" (7),
# 34 characters, 204 bits:
A_BITS='011011 100100 101100 110110 100001 000011 111011 100100 000001 111110
	001010 000011 100100 111100 111011
	000000 000001 000000 000001 000000 000001 000000 000001 000000 000001 000000 000001
	000000 110000 110111 000000 000001 000011 111101'

@test "3.7.1.3: A<a>B is Abks2hD7kB+KDk87(6*AB)Aw3ABD9B" {
	# A + 34 characters + B = 36 characters, 216 bits
	bits_trace d.json 217 'A<a>B' "$DICT_AB"
	dcfg_expand d.json
	{ head1; echo 10; bit_edges 000000 "$A_BITS" 000001; } | expect_stdout

	# 40 bits only: A b k s 2 h (36 bits) and 0000 of D = 000011
	bits_trace d.json 41 'A<a>B' "$DICT_AB"
	dcfg_expand d.json
	{ head1; echo 10; bit_edges 000000 011011 100100 101100 110110 100001 0000; } |
	    expect_stdout
}

@test "3.7.1.3: (2*A<a>B) is A<a>BA<a>B" {
	# 2 x 216 = 432 bits
	bits_trace d.json 433 '(2*A<a>B)' "$DICT_AB"
	dcfg_expand d.json
	{ head1; echo 10; bit_edges 000000 "$A_BITS" 000001 000000 "$A_BITS" 000001; } |
	    expect_stdout
}

@test "3.7.1.3: A<b>B, with a repeat of a repeat and a nested reference" {
	# "AKkDk123" then 42 x 25 = 1050 times "a" (the character, not the key)
	#   A 000000, K 001010, k 100100, D 000011, k 100100, 1 110101,
	#   2 110110, 3 110111, a 011010
	# 72 bits: A K k D k 1 2 3 and four a
	bits_trace d.json 73 'A<b>B' "$DICT_AB"
	dcfg_expand d.json
	{ head1; echo 10; bit_edges 000000 001010 100100 000011 100100 110101 110110 110111 \
	    011010 011010 011010 011010; } | expect_stdout

	# All of it: "AKkDk123" (8) + 1050 a + "45690D" (6) + <a> (34) +
	# "7Fjdkpm" (7) + "B" (1) = 1106 characters, 6636 bits
	#   4 111000, 5 111001, 6 111010, 9 111101, 0 110100, D 000011,
	#   7 111011, F 000101, j 100011, d 011101, k 100100, p 101001, m 100110, B 000001
	bits_trace d.json 6637 'A<b>B' "$DICT_AB"
	dcfg_expand d.json
	{
		head1
		echo 10
		bit_edges 000000 001010 100100 000011 100100 110101 110110 110111
		for i in $(seq 1050); do bit_edges 011010; done
		bit_edges 111000 111001 111010 111101 110100 000011
		bit_edges "$A_BITS"
		bit_edges 111011 000101 100011 011101 100100 101001 100110 000001
	} | expect_stdout
	[ "$(grep -vc '^#' stdout)" -eq 6637 ]
}

@test "a reference inside a repeat, and keys with every kind of character" {
	# (2*<a>) with a = "g": 100000 100000
	bits_trace d.json 13 '(2*<a>)' '{"a": "g"}'
	dcfg_expand d.json
	{ head1; echo 10; bit_edges 100000 100000; } | expect_stdout
	# keys are A-Z a-z 0-9 + -, case-sensitive: "x+Y-9" is "C", "X+Y-9" is "-"
	# C- = 000010 111111, then "-" again: 111111
	bits_trace d.json 19 '<x+Y-9><X+Y-9>' '{"x+Y-9": "C-", "X+Y-9": "-"}'
	dcfg_expand d.json
	{ head1; echo 10; bit_edges 000010 111111 111111; } | expect_stdout
}

# ---------------------------------------------------------------------------
# Small cases

@test "EDGE_COUNT 0 writes no edges, EDGE_COUNT 1 only FIRST_EDGE_ID; the sequence is still checked" {
	bits_trace z.json 0 ''
	dcfg_expand z.json
	head1 | expect_stdout
	dcfg_expand --chunks z.json
	{ head1; echo '# chunk 0 0 0'; } | expect_stdout

	# bits the chunk does not need are not an error
	bits_trace one.json 1 'AB'
	dcfg_expand one.json
	{ head1; echo 10; } | expect_stdout
	dcfg_expand --chunks one.json
	{ head1; echo '# chunk 0 0 1'; echo 10; } | expect_stdout

	# '!' is no Base64 character: the string breaks the format, though
	# the chunk needs none of its bits
	bits_trace z.json 0 '!'
	dcfg_expand z.json
	head1 | expect_error_after "dcfg-expand: z.json:10:7: $SEQ1 character 1: invalid character '!'"
	bits_trace one.json 1 'A!'
	dcfg_expand --chunks one.json
	{ head1; echo '# chunk 0 0 1'; } |
	    expect_error_after "dcfg-expand: one.json:10:7: $SEQ1 character 2: invalid character '!'"

	# FIRST_EDGE_ID 999 has no row in the table: with one edge nothing is decoded
	example_trace first.json 1 999 'AAAA'
	dcfg_expand first.json
	{ head1; echo 999; } | expect_stdout
}

# rows_trace FILE TABLE_ROWS CHUNK_ROW [DICTIONARY]: process 1, thread 0,
# the transition table's header and the given rows, one chunk row.
rows_trace() {
	local dict='{}'
	[ $# -ge 4 ] && dict=$4
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0, "PROCESSES": [' \
	    '  ["PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA"],' \
	    "  [1, $dict," \
	    "   [[\"CURRENT_EDGE_ID\", \"TRANSITION_CODE\", \"NEXT_EDGE_IDS\"]$2]," \
	    '   [["THREAD_ID", "TRACE_DATA"],' \
	    '    [0, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"],' \
	    "      $3]]]]]}" > "$1"
}

@test "a transition table of its header only" {
	# EDGE_COUNT 0 and 1 need no transition: no edge, and FIRST_EDGE_ID alone
	rows_trace h.json '' '[0, 0, 0, 5, ""]'
	dcfg_expand h.json
	head1 | expect_stdout
	dcfg_expand --count h.json
	printf '%s\t%s\t%s\t%s\n' '# pid' tid edges instructions 1 0 0 0 | expect_stdout
	rows_trace h.json '' '[0, 4, 1, 5, ""]'
	dcfg_expand --chunks h.json
	{ head1; echo '# chunk 0 4 1'; echo 5; } | expect_stdout
	# the second edge needs a row for edge 5 (the sequence opens on line 7,
	# after 6 spaces and '[0, 4, 2, 5, ': column 20)
	rows_trace h.json '' '[0, 4, 2, 5, "AAAA"]'
	dcfg_expand h.json
	{ head1; echo 5; } | expect_error_after "dcfg-expand: h.json:7:20: $SEQ1 edge 1: no transition from edge 5"
}

@test "ids at 0x7fffffff, zero-bit codes and a group cut short" {
	# 2147483647 -""-> [2147483646, 2147483647]: no bits at all; EDGE_COUNT 4
	# stops in the middle of the second group
	rows_trace big.json ', ["0x7fffffff", "", [2147483646, 2147483647]], [2147483646, "", [1]]' \
	    '[0, 9, 4, 2147483647, ""]'
	dcfg_expand big.json
	{ head1; printf '%s\n' 2147483647 2147483646 2147483647 2147483646; } | expect_stdout
}

@test "empty dictionary values and empty repeats yield nothing, at no cost" {
	# e = "", f = "<e><e>", g = "(5*<f>)(0*A)()": none yields a character;
	# "<g>w<e>" is then "w" = 110000
	rows_trace e.json ', [10, "0", [10]], [10, "1", [11]], [11, "0", [10]], [11, "1", [11]]' \
	    '[0, 0, 7, 10, "<g>(7*)w<e>"]' '{"e": "", "f": "<e><e>", "g": "(5*<f>)(0*A)(3*)"}'
	dcfg_expand e.json
	{ head1; echo 10; bit_edges 110000; } | expect_stdout
	# 64 levels of doubling an empty value: 2^63 empty references, then "g"
	dict=$(awk 'BEGIN { printf "{\"e0\": \"\""
	    for (i = 1; i < 64; i++) printf ", \"e%d\": \"<e%d><e%d>\"", i, i - 1, i - 1
	    printf "}" }')
	rows_trace e.json ', [10, "0", [10]], [10, "1", [11]], [11, "0", [10]], [11, "1", [11]]' \
	    '[0, 0, 7, 10, "<e63>(18446744073709551615*<e63>(9*<e62>))g<e63>"]' "$dict"
	status=0
	timeout 10 dcfg-expand e.json > stdout 2> stderr || status=$?
	{ head1; echo 10; bit_edges 100000; } | expect_stdout
}

@test "a 32-bit code" {
	# 20 -"0"-> 21, 20 -"1"x32-> 22, 21 -""-> 20, 22 -""-> 20
	# "-----w": - x5 = 30 ones, w = 110000: 32 ones, then 0 0 0 0
	# 20 -(32 ones)-> 22 -> 20 -0-> 21 -> 20 -0-> 21 -> 20 -0-> 21 -> 20 -0-> 21 -> 20
	printf '%s\n' \
	    '{"PROCESSES": [["PROCESS_ID", "TRANSITION_TABLE", "THREAD_DATA"],' \
	    '  [3, [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"],' \
	    '       [20, "0", [21]], [20, "11111111111111111111111111111111", [22]],' \
	    '       [21, "", [20]], [22, "", [20]]],' \
	    '   [["THREAD_ID", "TRACE_DATA"],' \
	    '    [0, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"],' \
	    '         [0, 0, 11, 20, "-----w"]]]]]]}' > code32.json
	dcfg_expand code32.json
	printf '%s\n' '# dcfg-stream 1' '# process 3' '# thread 0' \
	    20 22 20 21 20 21 20 21 20 21 20 | expect_stdout
}

@test "the largest repeat count, 18446744073709551615, is read" {
	# 2^64-1 copies of A; 6 bits of zeros are needed
	bits_trace big.json 7 '(18446744073709551615*A)'
	dcfg_expand big.json
	{ head1; echo 10; bit_edges 000000; } | expect_stdout
}

@test "repeats that expand to billions of characters finish at once" {
	# 9 bits are needed: the first 9 of the A's, all 0
	bits_trace bomb.json 10 '(999999999999*(999999999*A))'
	status=0
	timeout 5 dcfg-expand bomb.json > stdout 2> stderr || status=$?
	{ head1; echo 10; bit_edges 000000 000; } | expect_stdout

	# a repeat of an empty body ends after one pass; then C+ gives the bits
	# C+ = 000010 111110, 9 needed: 000010 111
	bits_trace empty.json 10 '(999999999999*)C+'
	status=0
	timeout 5 dcfg-expand empty.json > stdout 2> stderr || status=$?
	{ head1; echo 10; bit_edges 000010 111; } | expect_stdout

	# and a repeat whose body repeats nothing: g = 100000
	bits_trace zero.json 7 '(9*(0*A))g'
	status=0
	timeout 5 dcfg-expand zero.json > stdout 2> stderr || status=$?
	{ head1; echo 10; bit_edges 100000; } | expect_stdout
}

@test "\"()\" is not an empty repeat body: a '(' needs digits and '*'" {
	# spec 3.7.1.2: "(999999999999*())" holds an inner "(" followed by ")",
	# not by digits: the inner "(" is character 1 + 12 digits + "*" + 1 = 15
	# (an empty body is written "(999999999999*)", tested above).
	bits_trace empty.json 10 '(999999999999*())C+'
	status=0
	timeout 5 dcfg-expand empty.json > stdout 2> stderr || status=$?
	head1 | expect_error_after "dcfg-expand: empty.json:10:7: $SEQ1 character 15: a repeat needs digits and '*' after '('"
}

@test "a malformed sequence is an error even after the last needed bit" {
	# g = 100000 gives the 6 bits the chunk needs; the fault is character 2
	while IFS='|' read -r seq why; do
		bits_trace late.json 7 "$seq"
		dcfg_expand late.json
		head1 | expect_error_after "dcfg-expand: late.json:10:7: $SEQ1 character 2: $why"
	done <<-'EOF'
	g!|invalid character '!'
	g(3*|unbalanced parenthesis: '(' without ')'
	g)|unbalanced parenthesis: ')' without '('
	g<nosuchkey>|unknown dictionary key "nosuchkey"
	g(*A)|a repeat needs digits and '*' after '('
	g(99999999999999999999*A)|repeat count does not fit in 64 bits
	g<a|a reference has no closing '>'
	EOF
	# a character that cannot be in a key is placed at that character
	bits_trace late.json 7 'g<a b>'
	dcfg_expand late.json
	head1 | expect_error_after "dcfg-expand: late.json:10:7: $SEQ1 character 4: invalid character '\\x20'"
}

@test "processes with their own dictionaries and tables, threads in file order" {
	# t/data/trace-multi.json:
	# process 7 (dictionary a = "g", the one-bit table of 10 and 11)
	#   thread 2 (listed first):
	#     chunk 0: FIRST 10, 7 edges, "<a>" = "g" = 100000 -> 10 | 11 10 10 10 10 10
	#     chunk 1: FIRST 11, 3 edges, "C" = 000010: 2 bits 00 -> 11 | 10 10
	#   thread 0: FIRST 11, 4 edges, "w" = 110000: 3 bits 110 -> 11 | 11 11 10
	# process 9 (dictionary a = "w", the table of 3.5)
	#   thread 0:
	#     chunk 0: FIRST 123, 4 edges, "<a>" = "w" -> 123 125 542 549 (Example 1)
	#     chunk 1: EDGE_COUNT 0, nothing
	#     chunk 2: FIRST 123, 3 edges, "A" -> 123 124 456 (Example 2)
	#   thread 1: EDGE_COUNT 1: FIRST 124 only; its sequence is empty
	dcfg_expand "$DATA/trace-multi.json"
	multi_text | expect_stdout
}

multi_text() {
	cat <<'EOF'
# dcfg-stream 1
# process 7
# thread 2
10
11
10
10
10
10
10
11
10
10
# thread 0
11
11
11
10
# process 9
# thread 0
123
125
542
549
123
124
456
# thread 1
124
EOF
}

# ---------------------------------------------------------------------------
# Options

@test "--chunks writes a marker before each chunk, also one with no edges" {
	dcfg_expand --chunks "$DATA/trace-multi.json"
	expect_stdout <<'EOF'
# dcfg-stream 1
# process 7
# thread 2
# chunk 0 20 7
10
11
10
10
10
10
10
# chunk 20 8 3
11
10
10
# thread 0
# chunk 100 5 4
11
11
11
10
# process 9
# thread 0
# chunk 0 12 4
123
125
542
549
# chunk 12 0 0
# chunk 12 7 3
123
124
456
# thread 1
# chunk 0 3 1
124
EOF
}

@test "-p selects processes, in decimal or hex" {
	dcfg_expand -p 9 "$DATA/trace-multi.json"
	expect_stdout <<'EOF'
# dcfg-stream 1
# process 9
# thread 0
123
125
542
549
123
124
456
# thread 1
124
EOF
	cp stdout p9
	dcfg_expand -p 0x9 "$DATA/trace-multi.json"
	expect_stdout < p9
	# both, in file order whatever the order of the options
	dcfg_expand -p 9 -p 7 "$DATA/trace-multi.json"
	multi_text | expect_stdout
}

@test "-t selects threads in every selected process" {
	dcfg_expand -t 0 "$DATA/trace-multi.json"
	expect_stdout <<'EOF'
# dcfg-stream 1
# process 7
# thread 0
11
11
11
10
# process 9
# thread 0
123
125
542
549
123
124
456
EOF
	# process 7 has no thread 1: its process line stays, with no thread
	dcfg_expand -t 1 -t 2 "$DATA/trace-multi.json"
	expect_stdout <<'EOF'
# dcfg-stream 1
# process 7
# thread 2
10
11
10
10
10
10
10
11
10
10
# process 9
# thread 1
124
EOF
	dcfg_expand -p 7 -t 2 --chunks "$DATA/trace-multi.json"
	expect_stdout <<'EOF'
# dcfg-stream 1
# process 7
# thread 2
# chunk 0 20 7
10
11
10
10
10
10
10
# chunk 20 8 3
11
10
10
EOF
}

@test "--list prints the chunk table without decoding" {
	# sequence_length: "<a>" 3, "C" 1, "w" 1, "<a>" 3, "" 0, "A" 1, "" 0
	dcfg_expand --list "$DATA/trace-multi.json"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
	    '# pid' tid chunk preceding_instr_count instr_count edge_count sequence_length \
	    7 2 0 0 20 7 3 \
	    7 2 1 20 8 3 1 \
	    7 0 0 100 5 4 1 \
	    9 0 0 0 12 4 3 \
	    9 0 1 12 0 0 0 \
	    9 0 2 12 7 3 1 \
	    9 1 0 0 3 1 0 | expect_stdout

	dcfg_expand --list -p 9 -t 0 "$DATA/trace-multi.json"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
	    '# pid' tid chunk preceding_instr_count instr_count edge_count sequence_length \
	    9 0 0 0 12 4 3 \
	    9 0 1 12 0 0 0 \
	    9 0 2 12 7 3 1 | expect_stdout

	# nothing is decoded: a sequence that cannot be decoded is listed
	bits_trace bad.json 40 'A!B'
	dcfg_expand --list bad.json
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
	    '# pid' tid chunk preceding_instr_count instr_count edge_count sequence_length \
	    1 0 0 0 0 40 3 | expect_stdout
}

@test "--count prints the totals per thread" {
	# 7/2: 7+3 = 10 edges, 20+8 = 28 instructions; 7/0: 4, 5;
	# 9/0: 4+0+3 = 7 edges, 12+0+7 = 19; 9/1: 1, 3
	dcfg_expand --count "$DATA/trace-multi.json"
	printf '%s\t%s\t%s\t%s\n' '# pid' tid edges instructions \
	    7 2 10 28 \
	    7 0 4 5 \
	    9 0 7 19 \
	    9 1 1 3 | expect_stdout

	dcfg_expand --count -t 0 "$DATA/trace-multi.json"
	printf '%s\t%s\t%s\t%s\n' '# pid' tid edges instructions \
	    7 0 4 5 \
	    9 0 7 19 | expect_stdout

	# --count decodes: an error is found
	bits_trace bad.json 40 'A!B'
	dcfg_expand --count bad.json
	# the totals come after decoding: at most the header line before the error
	printf '%s\t%s\t%s\t%s\n' '# pid' tid edges instructions |
	    expect_error_after "dcfg-expand: bad.json:10:7: $SEQ1 character 2: invalid character '!'"
}

@test "-o writes to a file" {
	dcfg_expand -o out.txt "$DATA/trace-multi.json"
	[ "$status" -eq 0 ] || { show; false; }
	[ ! -s stdout ]
	[ ! -s stderr ]
	multi_text | cmp - out.txt
}

@test "standard input, as - or with no file, plain, gzip and bzip2" {
	dcfg_expand < "$DATA/trace-multi.json"
	multi_text | expect_stdout
	dcfg_expand - < "$DATA/trace-multi.json"
	multi_text | expect_stdout
	gzip -c "$DATA/trace-multi.json" > multi.json.gz
	bzip2 -c "$DATA/trace-multi.json" > multi.json.bz2
	dcfg_expand multi.json.gz
	multi_text | expect_stdout
	dcfg_expand multi.json.bz2
	multi_text | expect_stdout
	dcfg_expand < multi.json.gz
	multi_text | expect_stdout
	dcfg_expand - < <(cat multi.json.bz2)
	multi_text | expect_stdout
	# a decoding error on standard input is placed in the JSON text
	bits_trace bad.json 40 'A!B'
	gzip -c bad.json > bad.gz
	dcfg_expand < bad.gz
	head1 | expect_error_after "dcfg-expand: <stdin>:10:7: $SEQ1 character 2: invalid character '!'"
}

@test "--quiet does not change the output" {
	dcfg_expand --quiet "$DATA/trace-multi.json"
	multi_text | expect_stdout
}

# ---------------------------------------------------------------------------
# Instruction windows.  t/data/trace-window.json, process 5, table:
#   20 -""-> [21]; 21 -"0"-> [22], -"1"-> [23]; 22 -""-> [21];
#   23 -"0"-> [24, 21], -"1"-> [25]; 24 -""-> [21]
# and t/data/trace-window.dcfg.json, its DCFG: START is node 1, END node 2;
# blocks 3: 2 instructions, 4: 3, 5: 4; edges 20 START->3, 21 3->4, 22 4->3,
# 23 4->5, 24 5->3, 25 5->END.  An edge's instruction count is the count
# before its source block runs; START counts 0.
# thread 0:
#   chunk 0 [0, 3): "!" cannot be decoded (20 -> 21, then a bit is needed)
#   chunk 1 [10, 17): FIRST 20, 4 edges, "A" = 0: 20 -> 21 -0-> 22 -> 21
#     counts: 20@10 (+0), 21@10 (+2), 22@12 (+3), 21@15 (+2) = 17
#   chunk 2 [17, 33): FIRST 23, 5 edges, "Y" = 011000:
#     23 -0-> 24, 21 -1-> 23 -1-> 25
#     counts: 23@17 (+3), 24@20 (+4), 21@24 (+2), 23@26 (+3), 25@29 (+4) = 33
#   chunk 3 [100, 109): "(3*" cannot be decoded
# thread 1:
#   chunk 0 [0, 23): FIRST 20, 9 edges, "W" = 010110:
#     20 -> 21 -0-> 22 -> 21 -1-> 23 -0-> 24, 21 -1-> 23 -1-> 25
#     counts: 20@0, 21@0, 22@2, 21@5, 23@7, 24@10, 21@14, 23@16, 25@19, end 23

@test "a window without --dcfg writes the whole chunks that overlap it" {
	# [12, 20): thread 0: chunk 0 [0,3) no (3 > 12 is false, and it is not
	# decoded), chunk 1 [10,17) and chunk 2 [17,33) yes, chunk 3 no;
	# thread 1: [0,23) yes
	dcfg_expand --from-icount 12 --to-icount 20 "$DATA/trace-window.json"
	expect_stdout <<'EOF'
# dcfg-stream 1
# process 5
# thread 0
20
21
22
21
23
24
21
23
25
# thread 1
20
21
22
21
23
24
21
23
25
EOF
	dcfg_expand --chunks --from-icount 12 --to-icount 20 "$DATA/trace-window.json"
	expect_stdout <<'EOF'
# dcfg-stream 1
# process 5
# thread 0
# chunk 10 7 4
20
21
22
21
# chunk 17 16 5
23
24
21
23
25
# thread 1
# chunk 0 23 9
20
21
22
21
23
24
21
23
25
EOF
	# 7+16 = 23 instructions in thread 0, 23 in thread 1
	dcfg_expand --count --from-icount 12 --to-icount 20 "$DATA/trace-window.json"
	printf '%s\t%s\t%s\t%s\n' '# pid' tid edges instructions \
	    5 0 9 23 \
	    5 1 9 23 | expect_stdout
}

@test "a window without --dcfg: the ends of the window" {
	# [3, 17): chunk 0 [0,3): 3 > 3 is false; chunk 1 [10,17) yes;
	# chunk 2 [17,33): 17 < 17 is false
	dcfg_expand --chunks -t 0 --from-icount 3 --to-icount 17 "$DATA/trace-window.json"
	printf '%s\n' '# dcfg-stream 1' '# process 5' '# thread 0' \
	    '# chunk 10 7 4' 20 21 22 21 | expect_stdout
	# from 33: chunk 2 ends at 33, only chunk 3 [100,109) overlaps, and
	# its sequence "(3*" has no ")": checked before any of its edges
	# "(3*" is the 5th row of that TRACE_DATA table (after the header, 4th
	# row), line 22: 12 spaces, "[ 100, 9, 4, 20, " -> the quote is column 30
	cp "$DATA/trace-window.json" w.json
	dcfg_expand -t 0 --from-icount 33 w.json
	printf '%s\n' '# dcfg-stream 1' '# process 5' '# thread 0' |
	    expect_error_after "dcfg-expand: w.json:22:30: PROCESSES[1].THREAD_DATA[1].TRACE_DATA[4].EDGE_ID_SEQUENCE: process 5 thread 0 chunk 3 character 1: unbalanced parenthesis: '(' without ')'"
}

@test "a window without --dcfg: a chunk of no instructions is written when it starts in the window" {
	# trace-multi.json, process 9 thread 0: [0,12), [12,12) (INSTR_COUNT 0),
	# [12,19).  Window [12, 13): [0,12) no (12 > 12 false); the empty chunk
	# 12 <= 12 < 13 yes; [12,19) yes.
	dcfg_expand --chunks -p 9 -t 0 --from-icount 12 --to-icount 13 "$DATA/trace-multi.json"
	printf '%s\n' '# dcfg-stream 1' '# process 9' '# thread 0' \
	    '# chunk 12 0 0' '# chunk 12 7 3' 123 124 456 | expect_stdout
	# window [11, 12): [0,12) yes; 12 < 12 is false for the other two
	dcfg_expand --chunks -p 9 -t 0 --from-icount 11 --to-icount 12 "$DATA/trace-multi.json"
	printf '%s\n' '# dcfg-stream 1' '# process 9' '# thread 0' \
	    '# chunk 0 12 4' 123 125 542 549 | expect_stdout
}

@test "a window with --dcfg is exact, to the edge" {
	# [12, 20):
	#   thread 0 chunk 1: 22@12 and 21@15; preceding 12, instructions
	#     3 (block 4) + 2 (block 3) = 5, 2 edges
	#   thread 0 chunk 2: 23@17; 24@20 is not < 20; preceding 17, 3, 1 edge
	#   chunks 0 and 3 lie wholly outside: not decoded
	#   thread 1: 21@14, 23@16, 25@19; preceding 14, 2+3+4 = 9, 3 edges
	dcfg_expand --dcfg "$DATA/trace-window.dcfg.json" --from-icount 12 --to-icount 20 \
	    "$DATA/trace-window.json"
	printf '%s\n' '# dcfg-stream 1' '# process 5' '# thread 0' 22 21 23 \
	    '# thread 1' 21 23 25 | expect_stdout

	dcfg_expand --chunks --dcfg "$DATA/trace-window.dcfg.json" --from-icount 12 --to-icount 20 \
	    "$DATA/trace-window.json"
	expect_stdout <<'EOF'
# dcfg-stream 1
# process 5
# thread 0
# chunk 12 5 2
22
21
# chunk 17 3 1
23
# thread 1
# chunk 14 9 3
21
23
25
EOF
	# thread 0: 2+1 = 3 edges, 5+3 = 8 instructions; thread 1: 3, 9
	dcfg_expand --count --dcfg "$DATA/trace-window.dcfg.json" --from-icount 12 --to-icount 20 \
	    "$DATA/trace-window.json"
	printf '%s\t%s\t%s\t%s\n' '# pid' tid edges instructions \
	    5 0 3 8 \
	    5 1 3 9 | expect_stdout
	# the DCFG and the trace compressed, the trace on standard input
	bzip2 -c "$DATA/trace-window.dcfg.json" > w.dcfg.json.bz2
	gzip -c "$DATA/trace-window.json" > w.json.gz
	dcfg_expand --count --dcfg w.dcfg.json.bz2 --from-icount 12 --to-icount 20 < w.json.gz
	printf '%s\t%s\t%s\t%s\n' '# pid' tid edges instructions \
	    5 0 3 8 \
	    5 1 3 9 | expect_stdout
}

@test "a window with --dcfg: START counts no instructions; cuts at either end" {
	# thread 1, [0, 1): 20@0 (START, 0 instructions), 21@0 (block 3, 2);
	# 22@2 is out.  preceding 0, 0+2 = 2 instructions, 2 edges
	dcfg_expand --chunks -t 1 --dcfg "$DATA/trace-window.dcfg.json" --to-icount 1 \
	    "$DATA/trace-window.json"
	printf '%s\n' '# dcfg-stream 1' '# process 5' '# thread 1' \
	    '# chunk 0 2 2' 20 21 | expect_stdout
	# thread 1, [0, 10): 20@0 21@0 22@2 21@5 23@7; 24@10 is out
	# 0+2+3+2+3 = 10 instructions, 5 edges
	dcfg_expand --chunks -t 1 --dcfg "$DATA/trace-window.dcfg.json" --to-icount 10 \
	    "$DATA/trace-window.json"
	printf '%s\n' '# dcfg-stream 1' '# process 5' '# thread 1' \
	    '# chunk 0 10 5' 20 21 22 21 23 | expect_stdout
	# thread 1, [19, ...): only 25@19, from block 5: 4 instructions
	dcfg_expand --chunks -t 1 --dcfg "$DATA/trace-window.dcfg.json" --from-icount 19 \
	    "$DATA/trace-window.json"
	printf '%s\n' '# dcfg-stream 1' '# process 5' '# thread 1' \
	    '# chunk 19 4 1' 25 | expect_stdout
	# [10, 17) in thread 0: chunk 1 whole (20@10 21@10 22@12 21@15), an
	# uncut chunk keeps its marker: 10, 0+2+3+2 = 7, 4
	dcfg_expand --chunks -t 0 --dcfg "$DATA/trace-window.dcfg.json" --from-icount 10 \
	    --to-icount 17 "$DATA/trace-window.json"
	printf '%s\n' '# dcfg-stream 1' '# process 5' '# thread 0' \
	    '# chunk 10 7 4' 20 21 22 21 | expect_stdout
	dcfg_expand --count -t 0 --dcfg "$DATA/trace-window.dcfg.json" --from-icount 10 \
	    --to-icount 17 "$DATA/trace-window.json"
	printf '%s\t%s\t%s\t%s\n' '# pid' tid edges instructions 5 0 4 7 | expect_stdout
}

@test "--dcfg: an edge id that is not in the DCFG" {
	# 20 -> 77 -> 21; the DCFG of process 5 has edges 20..25 only
	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "TRANSITION_TABLE", "THREAD_DATA"],' \
	    '  [5, [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"],' \
	    '       [20, "", [77]], [77, "", [21]]],' \
	    '   [["THREAD_ID", "TRACE_DATA"],' \
	    '    [0, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"],' \
	    '         [0, 2, 3, 20, ""]]]]]]}' > bad.json
	# without the DCFG it decodes: 20 77 21
	dcfg_expand bad.json
	printf '%s\n' '# dcfg-stream 1' '# process 5' '# thread 0' 20 77 21 | expect_stdout
	# with it, edge 1 (77) is an error, placed like a decoding error at the
	# chunk's sequence: line 7 is 9 spaces, then [0, 2, 3, 20, "" -> the
	# opening quote is column 24
	dcfg_expand --dcfg "$DATA/trace-window.dcfg.json" --to-icount 100 bad.json
	printf '%s\n' '# dcfg-stream 1' '# process 5' '# thread 0' 20 |
	    expect_error_after 'dcfg-expand: bad.json:7:24: PROCESSES[1].THREAD_DATA[1].TRACE_DATA[1].EDGE_ID_SEQUENCE: process 5 thread 0 chunk 0 edge 1: edge id 77 is not in the DCFG'
}

@test "--dcfg: a FIRST_EDGE_ID that is not in the DCFG" {
	# one edge, FIRST_EDGE_ID 77: edge 0 is the error
	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "TRANSITION_TABLE", "THREAD_DATA"],' \
	    '  [5, [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"]],' \
	    '   [["THREAD_ID", "TRACE_DATA"],' \
	    '    [0, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"],' \
	    '         [0, 2, 1, 77, ""]]]]]]}' > bad.json
	# placed at the chunk's sequence: line 6, 9 spaces, [0, 2, 1, 77, "" -> 24
	dcfg_expand --dcfg "$DATA/trace-window.dcfg.json" --to-icount 100 bad.json
	printf '%s\n' '# dcfg-stream 1' '# process 5' '# thread 0' |
	    expect_error_after 'dcfg-expand: bad.json:6:24: PROCESSES[1].THREAD_DATA[1].TRACE_DATA[1].EDGE_ID_SEQUENCE: process 5 thread 0 chunk 0 edge 0: edge id 77 is not in the DCFG'
}

@test "--dcfg: a process that is not in the DCFG" {
	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "TRANSITION_TABLE", "THREAD_DATA"],' \
	    '  [99, [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"]],' \
	    '   [["THREAD_ID", "TRACE_DATA"],' \
	    '    [0, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"],' \
	    '         [0, 2, 1, 20, ""]]]]]]}' > bad.json
	#     1234: the row starts on line 3, column 3; its PROCESS_ID at column 4
	dcfg_expand --dcfg "$DATA/trace-window.dcfg.json" --to-icount 100 bad.json
	printf '%s\n' '# dcfg-stream 1' '# process 99' |
	    expect_error_after 'dcfg-expand: bad.json:3:4: PROCESSES[1].PROCESS_ID: process 99 is not in the DCFG'
}

# ---------------------------------------------------------------------------
# Decoding errors.  bits_trace and example_trace put the sequence on line 10,
# column 7; the first decoded edge is edge 1.

# A dictionary is checked when it has been read, before any chunk, whether
# its keys are used or not. An error is placed at the key whose value is at
# fault, and names the character of that value. bits_trace puts the
# dictionary on line 3 at column 7, so the first key of '{"a": ...' is at
# column 8.
DICT1='PROCESSES[1].STRING_DICTIONARY'

@test "a dictionary reference that goes round in a circle" {
	# a -> b -> a, met from a (the first key); character 1 is a's reference to b
	bits_trace loop.json 5 '<a>' '{"a": "<b>", "b": "<a>"}'
	dcfg_expand loop.json
	head1 | expect_error_after "dcfg-expand: loop.json:3:8: $DICT1: key \"a\" character 1: circular reference: a -> b -> a"
	# with b first, b is where the walk starts: {"b": "<a>", "a": "<b>"}
	bits_trace loop.json 5 '<a>' '{"b": "<a>", "a": "<b>"}'
	dcfg_expand loop.json
	head1 | expect_error_after "dcfg-expand: loop.json:3:8: $DICT1: key \"b\" character 1: circular reference: b -> a -> b"
	# a cycle that no chunk uses is an error all the same: {"c": "A", "d": "A<e>", "e": "<d>"}
	#   the key d is at 7 + len('{"c": "A", ') = 7 + 11 = 18; <e> is its value's character 2
	bits_trace loop.json 5 'A' '{"c": "A", "d": "A<e>", "e": "<d>"}'
	dcfg_expand loop.json
	head1 | expect_error_after "dcfg-expand: loop.json:3:18: $DICT1: key \"d\" character 2: circular reference: d -> e -> d"
}

@test "a dictionary value that refers to itself, after giving some bits" {
	# a = "B<a>": the reference is character 2
	bits_trace self.json 10 '<a>' '{"a": "B<a>"}'
	dcfg_expand self.json
	head1 | expect_error_after "dcfg-expand: self.json:3:8: $DICT1: key \"a\" character 2: circular reference: a -> a"
}

@test "an unknown dictionary key" {
	bits_trace u.json 5 '<b>' '{"a": "A"}'
	dcfg_expand u.json
	head1 | expect_error_after "dcfg-expand: u.json:10:7: $SEQ1 character 1: unknown dictionary key \"b\""
	# no dictionary at all: "A<a>", the reference is character 2
	bits_trace u.json 10 'A<a>'
	dcfg_expand u.json
	head1 | expect_error_after "dcfg-expand: u.json:10:7: $SEQ1 character 2: unknown dictionary key \"a\""
	# in a dictionary value that no chunk uses
	bits_trace u.json 5 'A' '{"a": "AA(2*<zz>)"}'
	dcfg_expand u.json
	head1 | expect_error_after "dcfg-expand: u.json:3:8: $DICT1: key \"a\" character 6: unknown dictionary key \"zz\""
}

@test "a malformed dictionary value is placed at its character" {
	while IFS='|' read -r value at why; do
		bits_trace d.json 5 'A' "{\"a\": \"$value\"}"
		dcfg_expand d.json
		head1 | expect_error_after "dcfg-expand: d.json:3:8: $DICT1: key \"a\" character $at: $why"
	done <<-'EOF'
	AB=|3|invalid character '='
	(2*A|1|unbalanced parenthesis: '(' without ')'
	A)|2|unbalanced parenthesis: ')' without '('
	(2A)|1|a repeat needs digits and '*' after '('
	<b|1|a reference has no closing '>'
	EOF
}

@test "unbalanced parentheses" {
	bits_trace p.json 10 'g(3*'
	dcfg_expand p.json
	head1 | expect_error_after "dcfg-expand: p.json:10:7: $SEQ1 character 2: unbalanced parenthesis: '(' without ')'"
	bits_trace p.json 10 'A)'
	dcfg_expand p.json
	head1 | expect_error_after "dcfg-expand: p.json:10:7: $SEQ1 character 2: unbalanced parenthesis: ')' without '('"
	# of two unclosed, the inner one is named: "(3*A(2*B" -> character 5
	bits_trace p.json 20 '(3*A(2*B'
	dcfg_expand p.json
	head1 | expect_error_after "dcfg-expand: p.json:10:7: $SEQ1 character 5: unbalanced parenthesis: '(' without ')'"
}

@test "a repeat without digits or without '*'" {
	bits_trace r.json 5 '(*A)'
	dcfg_expand r.json
	head1 | expect_error_after "dcfg-expand: r.json:10:7: $SEQ1 character 1: a repeat needs digits and '*' after '('"
	bits_trace r.json 5 '(3A)'
	dcfg_expand r.json
	head1 | expect_error_after "dcfg-expand: r.json:10:7: $SEQ1 character 1: a repeat needs digits and '*' after '('"
	bits_trace r.json 10 'C(A)'
	dcfg_expand r.json
	head1 | expect_error_after "dcfg-expand: r.json:10:7: $SEQ1 character 2: a repeat needs digits and '*' after '('"
}

@test "a repeat count that does not fit in 64 bits" {
	# 18446744073709551616 = 2^64
	bits_trace r.json 5 '(18446744073709551616*A)'
	dcfg_expand r.json
	head1 | expect_error_after "dcfg-expand: r.json:10:7: $SEQ1 character 1: repeat count does not fit in 64 bits"
}

@test "characters that are not modified Base64" {
	bits_trace i.json 10 'A!B'
	dcfg_expand i.json
	head1 | expect_error_after "dcfg-expand: i.json:10:7: $SEQ1 character 2: invalid character '!'"
	# '/' is standard Base64, the modified one has '-' instead
	bits_trace i.json 10 'A/B'
	dcfg_expand i.json
	head1 | expect_error_after "dcfg-expand: i.json:10:7: $SEQ1 character 2: invalid character '/'"
	# a control character, written \u0001 in the JSON: one character of the string
	bits_trace i.json 10 'A\u0001B'
	dcfg_expand i.json
	head1 | expect_error_after "dcfg-expand: i.json:10:7: $SEQ1 character 2: invalid character '\\x01'"
	bits_trace i.json 2 '='
	dcfg_expand i.json
	head1 | expect_error_after "dcfg-expand: i.json:10:7: $SEQ1 character 1: invalid character '='"
}

@test "the bits run out before EDGE_COUNT edges" {
	# A has 6 bits, 7 are needed: edges 1-6 then edge 7 fails
	bits_trace o.json 8 'A'
	dcfg_expand o.json
	{ head1; echo 10; bit_edges 000000; } |
	    expect_error_after "dcfg-expand: o.json:10:7: $SEQ1 edge 7: the bits ran out before EDGE_COUNT edges"
	# no characters at all
	bits_trace o.json 2 ''
	dcfg_expand o.json
	head1 | expect_error_after "dcfg-expand: o.json:10:7: $SEQ1 edge 1: the bits ran out before EDGE_COUNT edges"
	# a repeat of nothing gives no bits either
	bits_trace o.json 2 '(999999999999*)'
	status=0
	timeout 5 dcfg-expand o.json > stdout 2> stderr || status=$?
	head1 | expect_error_after "dcfg-expand: o.json:10:7: $SEQ1 edge 1: the bits ran out before EDGE_COUNT edges"
}

@test "no transition from an edge" {
	# Example 2 with one edge more: 123 124 456, and 456 has no row
	example_trace n.json 4 123 A
	dcfg_expand n.json
	{ head1; printf '%s\n' 123 124 456; } |
	    expect_error_after "dcfg-expand: n.json:10:7: $SEQ1 edge 3: no transition from edge 456"
	# FIRST_EDGE_ID without a row
	example_trace n.json 2 999 A
	dcfg_expand n.json
	{ head1; echo 999; } |
	    expect_error_after "dcfg-expand: n.json:10:7: $SEQ1 edge 1: no transition from edge 999"
}

@test "no code of the edge matches the next bits; rows, threads and chunks are counted right" {
	# process 42 (second row), thread 6 (second row), chunk 1 (second row)
	# edge 30 has codes "00" and "01"; chunk 0: A = 000000:
	#   30 -00-> 31 -""-> 30; chunk 1: g = 100000: no code starts with 1
	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "TRANSITION_TABLE", "THREAD_DATA"],' \
	    '  [1, [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"]],' \
	    '   [["THREAD_ID", "TRACE_DATA"]]],' \
	    '  [42, [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"],' \
	    '        [30, "00", [31]], [30, "01", [32]], [31, "", [30]]],' \
	    '   [["THREAD_ID", "TRACE_DATA"],' \
	    '    [3, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"]]],' \
	    '    [6, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"],' \
	    '         [0, 4, 3, 30, "A"],' \
	    '         [4, 4, 3, 30, "g"]]]]]]}' > bad.json
	#     123456789012345678901234: the "g" string is line 11, column 24
	dcfg_expand bad.json
	printf '%s\n' '# dcfg-stream 1' '# process 1' '# process 42' '# thread 3' \
	    '# thread 6' 30 31 30 30 |
	    expect_error_after 'dcfg-expand: bad.json:11:24: PROCESSES[2].THREAD_DATA[2].TRACE_DATA[2].EDGE_ID_SEQUENCE: process 42 thread 6 chunk 1 edge 1: no transition from edge 30 matches the next bits'
	# the chunk before is good on its own
	dcfg_expand --chunks -p 42 -t 6 --to-icount 4 bad.json
	printf '%s\n' '# dcfg-stream 1' '# process 42' '# thread 6' \
	    '# chunk 0 4 3' 30 31 30 | expect_stdout
}

# ---------------------------------------------------------------------------
# Bad transition tables, dictionaries and headers

# table_trace ROW_LINE...: process 1 whose TRANSITION_TABLE has the header
# on line 3 and the given lines from line 4 on (the last one closes the
# table); then an empty THREAD_DATA table.
table_trace() {
	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "TRANSITION_TABLE", "THREAD_DATA"],' \
	    '  [1, [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"],' \
	    "$@" \
	    '   [["THREAD_ID", "TRACE_DATA"]]]]}' > bad.json
}

@test "a transition code with a character other than 0 and 1" {
	table_trace \
	    '       [10, "0", [11]],' \
	    '       [10, "12", [12]]],'
	#     1234567890123: the code "12" is line 5, column 13
	dcfg_expand bad.json
	printf '%s\n' '# dcfg-stream 1' '# process 1' |
	    expect_error_after "dcfg-expand: bad.json:5:13: PROCESSES[1].TRANSITION_TABLE[2].TRANSITION_CODE: a code has only the characters '0' and '1'"
}

@test "a transition code of 33 bits" {
	table_trace \
	    '       [10, "0", [11]],' \
	    '       [10, "111111111111111111111111111111111", [12]]],'
	# 33 ones; the code is line 5, column 13
	dcfg_expand bad.json
	printf '%s\n' '# dcfg-stream 1' '# process 1' |
	    expect_error_after "dcfg-expand: bad.json:5:13: PROCESSES[1].TRANSITION_TABLE[2].TRANSITION_CODE: a code has at most 32 bits"
}

@test "an empty NEXT_EDGE_IDS" {
	table_trace \
	    '       [10, "0", [11]],' \
	    '       [10, "1", []]],'
	#     123456789012345678: the [] is line 5, column 18
	dcfg_expand bad.json
	printf '%s\n' '# dcfg-stream 1' '# process 1' |
	    expect_error_after "dcfg-expand: bad.json:5:18: PROCESSES[1].TRANSITION_TABLE[2].NEXT_EDGE_IDS: at least one edge id is needed"
}

@test "two codes of an edge that are the same padded to 32 bits" {
	# "00" and "0" are both 0x00000000; the shorter is named first
	table_trace \
	    '       [10, "00", [11]],' \
	    '       [10, "0", [12]]],'
	#     12345678901234567890123: line 5: the row ends in column 22, the
	#     table's closing bracket is column 23
	dcfg_expand bad.json
	printf '%s\n' '# dcfg-stream 1' '# process 1' |
	    expect_error_after 'dcfg-expand: bad.json:5:23: PROCESSES[1].TRANSITION_TABLE: edge 10: codes "0" and "00" are the same padded to 32 bits'
}

@test "a code that is a prefix of another code of the same edge" {
	# "1" (0x80000000) and "11" (0xc0000000) differ padded, but after "1"
	# the decoder stops, so "11" can never be read.  Edge 20 between them.
	table_trace \
	    '       [10, "11", [11]], [20, "0", [21]], [20, "1", [22]],' \
	    '       [10, "1", [12]]],'
	dcfg_expand bad.json
	printf '%s\n' '# dcfg-stream 1' '# process 1' |
	    expect_error_after 'dcfg-expand: bad.json:5:23: PROCESSES[1].TRANSITION_TABLE: edge 10: code "1" is a prefix of code "11", which can never be read'

	# "" is a prefix of every code; "" and "1" differ padded (0 and 0x80000000)
	table_trace \
	    '       [10, "1", [11]],' \
	    '       [10, "", [12]]],'
	#     1234567890123456789012: line 5, the table closes in column 22
	dcfg_expand bad.json
	printf '%s\n' '# dcfg-stream 1' '# process 1' |
	    expect_error_after 'dcfg-expand: bad.json:5:22: PROCESSES[1].TRANSITION_TABLE: edge 10: code "" is a prefix of code "1", which can never be read'
}

@test "codes 1 and 10: a prefix and the same padded, one of the two messages" {
	# The contract gives "1"/"10" as its prefix example, but padded both are
	# 0x80000000 like "0"/"00".  Either message is accepted here.
	table_trace \
	    '       [10, "10", [11]],' \
	    '       [10, "1", [12]]],'
	dcfg_expand bad.json
	printf '%s\n' '# dcfg-stream 1' '# process 1' |
	    expect_error_after_like '^dcfg-expand: bad\.json:5:23: PROCESSES\[1\]\.TRANSITION_TABLE: edge 10: (codes "1" and "10" are the same padded to 32 bits|code "1" is a prefix of code "10", which can never be read)$'
}

@test "a dictionary key with a character outside the set, and a value that is no string" {
	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA"],' \
	    '  [1, {"a": "A",' \
	    '       "a b": "B"},' \
	    '   [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"]],' \
	    '   [["THREAD_ID", "TRACE_DATA"]]]]}' > bad.json
	#     12345678: the key "a b" is line 4, column 8
	dcfg_expand bad.json
	printf '%s\n' '# dcfg-stream 1' '# process 1' |
	    expect_error_after_like '^dcfg-expand: bad\.json:4:8: PROCESSES\[1\]\.STRING_DICTIONARY(\.a b)?: key "a b" has characters other than A-Z a-z 0-9 \+ -$'

	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA"],' \
	    '  [1, {"a": 5},' \
	    '   [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"]],' \
	    '   [["THREAD_ID", "TRACE_DATA"]]]]}' > bad.json
	#     1234567890123: the value 5 is line 3, column 13
	dcfg_expand bad.json
	printf '%s\n' '# dcfg-stream 1' '# process 1' |
	    expect_error_after_like '^dcfg-expand: bad\.json:3:13: PROCESSES\[1\]\.STRING_DICTIONARY(\.a)?: expected a string, found a number$'
}

@test "THREAD_DATA before TRANSITION_TABLE, STRING_DICTIONARY or PROCESS_ID cannot be read in one pass" {
	printf '%s\n' \
	    '{"MAJOR_VERSION": 1, "MINOR_VERSION": 0,' \
	    ' "PROCESSES": [' \
	    '  ["PROCESS_ID", "STRING_DICTIONARY", "THREAD_DATA", "TRANSITION_TABLE"],' \
	    '  [1, {}, [["THREAD_ID", "TRACE_DATA"]], [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"]]]]}' > bad.json
	#     123: the header is line 3, column 3
	dcfg_expand bad.json
	# the contract fixes the position, not the path: PROCESSES or PROCESSES[header]
	echo '# dcfg-stream 1' |
	    expect_error_after_like '^dcfg-expand: bad\.json:3:3: PROCESSES\[header\]: THREAD_DATA comes before TRANSITION_TABLE: the trace cannot be read in one pass$'

	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "TRANSITION_TABLE", "THREAD_DATA", "STRING_DICTIONARY"],' \
	    '  [1, [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"]], [["THREAD_ID", "TRACE_DATA"]], {}]]}' > bad.json
	dcfg_expand bad.json
	echo '# dcfg-stream 1' |
	    expect_error_after_like '^dcfg-expand: bad\.json:2:3: PROCESSES\[header\]: THREAD_DATA comes before STRING_DICTIONARY: the trace cannot be read in one pass$'

	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["TRANSITION_TABLE", "THREAD_DATA", "PROCESS_ID"],' \
	    '  [[["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"]], [["THREAD_ID", "TRACE_DATA"]], 1]]}' > bad.json
	dcfg_expand bad.json
	echo '# dcfg-stream 1' |
	    expect_error_after_like '^dcfg-expand: bad\.json:2:3: PROCESSES\[header\]: THREAD_DATA comes before PROCESS_ID: the trace cannot be read in one pass$'
}

@test "TRACE_DATA before THREAD_ID cannot be read in one pass" {
	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "TRANSITION_TABLE", "THREAD_DATA"],' \
	    '  [1, [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"]],' \
	    '   [["TRACE_DATA", "THREAD_ID"]]]]}' > bad.json
	#     1234: the THREAD_DATA header is line 4, column 5
	dcfg_expand bad.json
	printf '%s\n' '# dcfg-stream 1' '# process 1' |
	    expect_error_after_like '^dcfg-expand: bad\.json:4:5: PROCESSES\[1\]\.THREAD_DATA\[header\]: TRACE_DATA comes before THREAD_ID: the trace cannot be read in one pass$'
}

@test "required columns" {
	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "TRANSITION_TABLE"],' \
	    '  [1, [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"]]]]}' > bad.json
	dcfg_expand bad.json
	echo '# dcfg-stream 1' |
	    expect_error_after 'dcfg-expand: bad.json:2:3: PROCESSES[header]: the header has no THREAD_DATA column'

	# TRACE_DATA without EDGE_COUNT; its header is line 5, column 10
	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "TRANSITION_TABLE", "THREAD_DATA"],' \
	    '  [1, [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"]],' \
	    '   [["THREAD_ID", "TRACE_DATA"],' \
	    '    [0, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"]]]]]]}' > bad.json
	dcfg_expand bad.json
	printf '%s\n' '# dcfg-stream 1' '# process 1' '# thread 0' |
	    expect_error_after 'dcfg-expand: bad.json:5:10: PROCESSES[1].THREAD_DATA[1].TRACE_DATA[header]: the header has no EDGE_COUNT column'

	# STRING_DICTIONARY is optional: a process without it and without threads
	printf '%s\n' \
	    '{"PROCESSES": [' \
	    '  ["PROCESS_ID", "TRANSITION_TABLE", "THREAD_DATA"],' \
	    '  [1, [["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"]], [["THREAD_ID", "TRACE_DATA"]]]]}' > ok.json
	dcfg_expand ok.json
	printf '%s\n' '# dcfg-stream 1' '# process 1' | expect_stdout
}

# ---------------------------------------------------------------------------
# Usage and output

@test "--help and -h print the usage on stdout" {
	dcfg_expand --help
	[ "$status" -eq 0 ] || { show; false; }
	grep -qi 'usage' stdout
	grep -q 'dcfg-expand' stdout
	[ ! -s stderr ]
	cp stdout help.txt
	dcfg_expand -h
	[ "$status" -eq 0 ]
	cmp help.txt stdout
}

@test "--version and -V" {
	dcfg_expand --version
	echo "dcfg-expand (dcfg-tools) 0.1.0" | expect_stdout
	dcfg_expand -V
	echo "dcfg-expand (dcfg-tools) 0.1.0" | expect_stdout
}

@test "usage errors exit 2 and print nothing on stdout" {
	dcfg_expand --bogus "$DATA/trace-multi.json"
	[ "$status" -eq 2 ] || { show; false; }
	[ ! -s stdout ]
	grep -q '^dcfg-expand: ' stderr

	dcfg_expand "$DATA/trace-multi.json" -p
	[ "$status" -eq 2 ] || { show; false; }
	[ ! -s stdout ]

	dcfg_expand -t two "$DATA/trace-multi.json"
	[ "$status" -eq 2 ] || { show; false; }
	[ ! -s stdout ]

	dcfg_expand --from-icount x "$DATA/trace-multi.json"
	[ "$status" -eq 2 ] || { show; false; }
	[ ! -s stdout ]

	dcfg_expand "$DATA/trace-multi.json" "$DATA/trace-multi.json"
	[ "$status" -eq 2 ] || { show; false; }
	[ ! -s stdout ]
}

@test "a missing file" {
	dcfg_expand nosuch.json
	# at most the stream's first line before the error
	echo '# dcfg-stream 1' |
	    expect_error_after "dcfg-expand: nosuch.json: No such file or directory"
}

@test "a reader that stops early: | head -1 is not an error" {
	# 1000001 edges, about 3 MB: more than a pipe holds
	bits_trace big.json 1000001 '(999999*A)'
	run bash -c 'set -o pipefail; dcfg-expand big.json 2> err | head -1'
	[ "$status" -eq 0 ] || { echo "status $status: $output"; cat err; false; }
	[ "$output" = "# dcfg-stream 1" ]
	[ ! -s err ]
}

@test "output that cannot be written is an error" {
	[ -w /dev/full ] || skip "no /dev/full"
	status=0
	dcfg-expand "$DATA/trace-multi.json" > /dev/full 2> stderr || status=$?
	[ "$status" -eq 2 ] || { cat stderr; echo "status $status"; false; }
	[ "$(cat stderr)" = "dcfg-expand: <stdout>: write error: No space left on device" ]
}

@test "ids of every length, and ids that share a slot of the formatted lines, come back as encoded" {
	# dcfg-expand keeps each id's line formatted in slot ID mod 4096: 1,
	# 4097 and 8193 share slot 1, 4095 and 2147483647 (0x7fffffff) slot
	# 4095; each evicts the other, over and over
	printf '%s\n' '# dcfg-stream 1' '# process 1' '# thread 0' \
	    1 9 10 99 100 999 1000 4096 4097 8193 1 4097 1 2147483647 4095 2147483647 4095 \
	    999999999 1000000000 1000000001 123456789 12345 > ids.stream
	dcfg-encode -o ids.json ids.stream
	dcfg_expand ids.json
	expect_stdout < ids.stream
	# 300000 lines of 5 to 10 digits (about 2 MB, the output buffer 8 times
	# over), cycling through 7 ids of slot 5: the lines cross every buffer end
	awk 'BEGIN { print "# dcfg-stream 1"; print "# process 1"; print "# thread 0"
	    split("5 4101 8197 1048581 16777221 2147479557 100003845", id, " ")
	    for (i = 0; i < 300000; i++) print id[i % 7 + 1] }' > many.stream
	dcfg-encode -o many.json many.stream
	dcfg-expand many.json > many.out
	cmp many.stream many.out
}

@test "a dictionary that doubles 40 times (2^40 characters) finishes at once" {
	# k0 = "g" (100000); k(i) = <k(i-1)><k(i-1)>, so <k40> stands for 2^40
	# copies of g. 8 edges need 7 bits: 100000 1 -> 11 10 10 10 10 10 11
	dict='{"k0": "g"'
	for i in $(seq 1 40); do
		dict="$dict, \"k$i\": \"<k$((i - 1))><k$((i - 1))>\""
	done
	bits_trace bomb.json 8 '<k40>' "$dict}"
	status=0
	timeout 5 dcfg-expand bomb.json > stdout 2> stderr || status=$?
	{ head1; echo 10; bit_edges 100000 1; } | expect_stdout
}

@test "--progress shows the bytes read on standard error; stdout is the same" {
	dcfg-expand --progress "$DATA/trace-multi.json" > out 2> err
	grep -q 'dcfg-expand: trace-multi\.json: 100%, 1\.5 KiB, ' err
	dcfg-expand "$DATA/trace-multi.json" > plain 2> plain.err
	cmp out plain
	[ ! -s plain.err ]
	dcfg-expand --progress --quiet "$DATA/trace-multi.json" > /dev/null 2> quiet.err
	[ ! -s quiet.err ]
}

@test "bad numbers and conflicting options are usage errors" {
	dcfg_expand -p 1x "$DATA/trace-multi.json"
	expect_error "dcfg-expand: -p 1x: not an integer (decimal, 0x-hex or 0-octal)"
	dcfg_expand -t -3 "$DATA/trace-multi.json"
	expect_error "dcfg-expand: -t -3: negative values are not allowed"
	dcfg_expand --from-icount 10 --to-icount 10 "$DATA/trace-multi.json"
	expect_error "dcfg-expand: --from-icount must be below --to-icount"
	dcfg_expand --dcfg - - < "$DATA/trace-multi.json"
	expect_error "dcfg-expand: the DCFG and the input cannot both be standard input"
	dcfg_expand "$DATA/trace-multi.json" "$DATA/trace-multi.json"
	[ "$status" -eq 2 ]
	[ ! -s stdout ]
	[ "$(head -n 1 stderr)" = "dcfg-expand: one input file at most" ]
}

@test "instruction counts past 2^64 - 1: a window or --count says so, never wraps" {
	# a chunk from 2^64 - 10 of 20 instructions ends past 2^64 - 1
	rows_trace big.json ', [10, "", [10]]' '[18446744073709551606, 20, 2, 10, "A"]'
	dcfg_expand --from-icount 5 big.json
	head1 | expect_error_after "dcfg-expand: big.json:7:41: $SEQ1: PRECEDING_INSTR_COUNT + INSTR_COUNT does not fit in 64 bits: no window can place the chunk"
	# without a window the counts are not used: the edges come out
	dcfg_expand big.json
	{ head1; printf '10\n10\n'; } | expect_stdout
	# two chunks of 2^63 instructions each: the thread's 2^64 instructions
	rows_trace two.json ', [10, "", [10]]' '[0, 9223372036854775808, 1, 10, ""], [9223372036854775808, 9223372036854775808, 1, 10, ""]'
	dcfg_expand --count two.json
	printf '# pid\ttid\tedges\tinstructions\n' |
	    expect_error_after "dcfg-expand: two.json:7:94: PROCESSES[1].THREAD_DATA[1].TRACE_DATA[2].EDGE_ID_SEQUENCE: process 1 thread 0 chunk 1: the thread's instructions pass 2^64 - 1"
}

@test "edge counts past 2^64 - 1: --count says so, never wraps" {
	# EDGE_COUNT 2^63 twice, on a zero-bit cycle (10 -> 10): the thread's 2^64 edges
	rows_trace e.json ', [10, "", [10]]' '[0, 1, 9223372036854775808, 10, ""], [1, 1, 9223372036854775808, 10, ""]'
	dcfg_expand --count e.json
	printf '# pid\ttid\tedges\tinstructions\n' |
	    expect_error_after "dcfg-expand: e.json:7:76: PROCESSES[1].THREAD_DATA[1].TRACE_DATA[2].EDGE_ID_SEQUENCE: process 1 thread 0 chunk 1: the thread's edges pass 2^64 - 1"
	# one edge fewer fits: 2^64 - 1 edges, by arithmetic over the runs
	rows_trace f.json ', [10, "", [10]]' '[0, 1, 9223372036854775808, 10, ""], [1, 1, 9223372036854775807, 10, ""]'
	dcfg_expand --count f.json
	printf '# pid\ttid\tedges\tinstructions\n1\t0\t18446744073709551615\t2\n' | expect_stdout
}
