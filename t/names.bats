#!/usr/bin/env bats
# Names a person reads, the same in every table, profile and picture
# (lib/dcfg/names.h): a routine is its symbol when its entry is the symbol's
# start (main, not main+0x0); symbol+0xOFF inside a symbol; IMAGE+0xOFF
# where no symbol covers it. A symbol name that two images of the process
# share gets @IMAGE. An image is its base name; its whole file name when
# another image has the same base name; BASE#IMAGE_ID when another has the
# same whole file name.
#
# t/data/names.dcfg.json, process 77, one block and one routine per name:
#   image 1 /usr/bin/prog     main at 0x0, _init at 0x100
#     block 10 at 0x0     main: unique, at its start
#     block 11 at 0x100   _init@prog: image 2 has an _init too; "prog" is
#                         the only base name of its kind
#   image 2 /lib/libc.so.6    _init at 0x0, puts at 0x40
#     block 20 at 0x0     _init@libc.so.6#2: images 2, 3, 4 share the base
#                         name libc.so.6, and 2 and 4 the file /lib/libc.so.6
#     block 21 at 0x48    puts+0x8@libc.so.6#2: 8 bytes into puts, which
#                         image 4 has too
#   image 3 /opt/x/libc.so.6  no symbols
#     block 30 at 0x10    /opt/x/libc.so.6+0x10: no symbol, so the image and
#                         the offset; its base name is shared, its file not
#   image 4 /lib/libc.so.6    puts at 0x0
#     block 40 at 0x0     puts@libc.so.6#4
# Edges: START -> 10 -> 11 -> 20 -> 21 -> 30 -> 40 -> END, once each,
# calls from each block to the next.

load test_helper

N="$DATA/names.dcfg.json"

names() {
	printf '%s\n' main _init@prog _init@libc.so.6#2 puts+0x8@libc.so.6#2 \
	    /opt/x/libc.so.6+0x10 puts@libc.so.6#4
}

@test "dcfg-count --by routine: the names, each routine entered once, one instruction each" {
	dcfg_count --by routine --from-dcfg --dcfg "$N"
	# six routines of 1 instruction, 6 in all: 1/6 = 16.666... -> 16.67; ties by id
	{
		printf '# process 77\n# total_instructions 6\n# routine\tname\texecutions\tinstructions\tshare\n'
		paste <(printf '%s\n' 10 11 20 21 30 40) <(names) |
		    awk -F'\t' -v OFS='\t' '{ print $1, $2, 1, 1, "16.67" }'
	} | expect_stdout
}

@test "Callgrind: the functions carry the same names" {
	dcfg_convert --to callgrind --dcfg "$N"
	[ "$status" -eq 0 ]
	# fn=(ID) NAME the first time a function appears (cfn= for a callee)
	sed -n 's/^c\{0,1\}fn=([0-9]*) //p' stdout > got
	names | diff - got
}

@test "webgrind, dot and CSI: the same names" {
	dcfg_convert --to webgrind --dcfg "$N"
	[ "$status" -eq 0 ]
	for name in $(names); do
		grep -qxF -- "$name" stdout || { echo "webgrind: no $name"; false; }
	done
	dcfg_convert --to dot --dcfg "$N"
	[ "$status" -eq 0 ]
	sed -n 's/^f[0-9]* \[label="\([^\\]*\)\\n.*/\1/p' stdout > got
	names | diff - got
	dcfg_convert --to csi --dcfg "$N"
	[ "$status" -eq 0 ]
	# each routine: "#", then its name
	awk 'prev == "#" { print } { prev = $0 }' stdout > got
	names | diff - got
}

@test "a symbol name no other image has is not qualified; an offset of 0 is not written" {
	# count-prog: main (at its start), sq+0xc (inside sq), image3+0x0 (no
	# symbol, no file name: the IMAGE_ID)
	dcfg_count --by routine --from-dcfg --dcfg "$DATA/count-prog.dcfg.json"
	[ "$status" -eq 0 ]
	awk -F'\t' '/^# process/ { p = $0 } p == "# process 300" && !/^#/ { print $2 }' stdout |
	    sort > got
	printf '%s\n' image3+0x0 main sq+0xc | diff - got
}

@test "dot --routine: the qualified name; a bare shared name says which it may mean" {
	dcfg_convert --to dot --dcfg "$N" --routine _init@libc.so.6#2
	[ "$status" -eq 0 ] && grep -q '^digraph "_init@libc.so.6#2"' stdout || { show; false; }
	dcfg_convert --to dot --dcfg "$N" --routine _init
	expect_error "dcfg-convert: $N: process 77 has no routine _init; images share the name: _init@prog, _init@libc.so.6#2"
	# puts+0x8@libc.so.6#2 is inside puts, not named puts: only image 4's
	dcfg_convert --to dot --dcfg "$N" --routine puts
	expect_error "dcfg-convert: $N: process 77 has no routine puts; images share the name: puts@libc.so.6#4"
	dcfg_convert --to dot --dcfg "$N" --routine nosuch
	expect_error "dcfg-convert: $N: process 77 has no routine nosuch (all of them: dcfg-info --list routines)"
}
