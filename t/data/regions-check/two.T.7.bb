# A two-phase program, thread 7, written by hand (t/regions-check.bats):
# phase A (slices 0-2) runs block 1 three times and block 2 twice in each
# slice, phase B (slices 3-4) blocks 3 and 4 once each, in a library.
P: 7
G: /usr/bin/two LowAddress: 0x400000 LoadOffset: 0x0
G: /lib/libb.so LowAddress: 0x7f0000000000 LoadOffset: 0x7f0000000000
S: 0x401000 1 /usr/bin/two 0x400000 + 0x1000 # /src/two.c:5
T:1:6 :2:4
S: 0x401000 4 /usr/bin/two 0x400000 + 0x1000 # /src/two.c:5
T:1:6 :2:4
S: 0x401000 7 /usr/bin/two 0x400000 + 0x1000 # /src/two.c:5
T:1:6 :2:4
S: 0x7f0000001000 1 /lib/libb.so 0x7f0000000000 + 0x1000 # Unknown:0
T:3:5 :4:5
S: 0x7f0000001000 2 /lib/libb.so 0x7f0000000000 + 0x1000 # Unknown:0
T:3:5 :4:5
S: 0x7f0000001010 2 /lib/libb.so 0x7f0000000000 + 0x1010 # Unknown:0
Dynamic instruction count 50
SliceSize: 10
Block id: 1 0x401000:0x401004 static instructions: 2 block count: 9 block size: 6
Block id: 2 0x401010:0x401014 static instructions: 2 block count: 6 block size: 6
Block id: 3 0x7f0000001000:0x7f0000001008 static instructions: 5 block count: 2 block size: 10
Block id: 4 0x7f0000001010:0x7f0000001018 static instructions: 5 block count: 2 block size: 10
End of bb
