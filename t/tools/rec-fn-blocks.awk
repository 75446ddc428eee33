# t/record-write.bats: a function's static blocks from its disassembly, the graph the
# tests record by hand (usage: objdump -d --insn-width=16 PROG | awk -v FN=NAME -f rec-fn-blocks.awk).
# objdump -d --insn-width=16 output of one function (FN) -> "block" lines:
# leaders are the function's start, jump targets inside it and what follows a jump
# (x86-64's j*; aarch64's b and b.COND, whose objdump shows one word an instruction).
# Prints "ADDR LENS" per block, in address order.
$2 == "<" FN ">:" { on = 1; next }
on && /^$/ { on = 0 }
on && /^ +[0-9a-f]+:/ {
	split($0, f, "\t"); a = f[1]; sub(/^ +/, "", a); sub(/:$/, "", a)
	n++; addr[n] = hex(a); len[n] = split(f[2], b, " ")
	if (len[n] == 1 && length(b[1]) == 8) len[n] = 4   # aarch64: one 32-bit word
	if (f[3] ~ /^j/) { jump[n] = 1; t = f[3]; sub(/^[a-z]+ +/, "", t); sub(/ .*/, "", t); lead[hex(t)] = 1 }
	if (f[3] ~ /^b(\.[a-z]+)?$/) { jump[n] = 1; t = f[4]; sub(/ .*/, "", t); lead[hex(t)] = 1 }
}
END {
	lead[addr[1]] = 1
	for (i = 1; i <= n; i++) if (jump[i] && i < n) lead[addr[i + 1]] = 1
	for (i = 1; i <= n; i++) {
		if (addr[i] in lead) { if (s != "") print s; s = sprintf("0x%x ", addr[i]); sep = "" }
		s = s sep len[i]; sep = ","
	}
	print s
}
function hex(s,   v, i) {
	v = 0
	for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}
