# dcfg-profile 1 slice-size=20 rule=fixed dcfg=06d73204:2379 process=77 thread=3
P: 3
C: sum:dummy Command: dcfg-profile --slice-size 20 -o prog prog.dcfg.json
G: /usr/bin/prog LowAddress: 0x400000 LoadOffset: 0x0
G: /lib/lib\x20c,x.so LowAddress: 0x7f0000000000 LoadOffset: 0x7f0000000000
S: 0x401000 1 /usr/bin/prog 0x400000 + 0x1000 # /src/prog.c:10
# Slice ending at 20 global 20
# Unfiltered count 20
T:1:8 :2:10 :3:2
S: 0x401010 3 /usr/bin/prog 0x400000 + 0x1010 # /src/prog.c:20
# Slice ending at 43 global 43
# Unfiltered count 23
T:1:4 :2:10 :4:9
S: 0x401000 4 /usr/bin/prog 0x400000 + 0x1000 # /src/prog.c:10
# Slice ending at 63 global 63
# Unfiltered count 20
T:1:12 :3:8
S: 0x7f0000001000 4 /lib/lib\x20c,x.so 0x7f0000000000 + 0x1000 # Unknown:0
# Slice ending at 83 global 83
# Unfiltered count 20
T:2:5 :4:15
S: 0x401010 6 /usr/bin/prog 0x400000 + 0x1010 # /src/prog.c:20
# Slice ending at 94 global 94
# Unfiltered count 11
T:1:4 :2:5 :3:2
S: 0x401020 6 /usr/bin/prog 0x400000 + 0x1020 # /src/prog.c:30
Dynamic instruction count 94
Dynamic unfiltered instruction count 94
SliceSize: 20
Block id: 1 0x401000:0x401009 static instructions: 4 block count: 7 block size: 10
Block id: 2 0x401010:0x40101f static instructions: 5 block count: 6 block size: 16
Block id: 3 0x401020:0x401027 static instructions: 2 block count: 6 block size: 8
Block id: 4 0x7f0000001000:0x7f000000100f static instructions: 3 block count: 8 block size: 16
End of bb
