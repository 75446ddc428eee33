/*
 * The program whose recording is the spool fuzz target's real seed
 * (t/fuzz/seeds-spool.sh): a loop, a call and its return, a rep movsb,
 * write(2) and exit_group(2), without libc so that the spool stays small.
 *   cc -nostdlib -static -o spool-prog t/fuzz/spool-prog.S
 */
	.globl _start
	.text
_start:
	mov	$3, %ecx
1:	call	copy
	dec	%ecx
	jnz	1b
	mov	$1, %eax		/* write(1, buf, 6) */
	mov	$1, %edi
	lea	buf(%rip), %rsi
	mov	$6, %edx
	syscall
	mov	$231, %eax		/* exit_group(0) */
	xor	%edi, %edi
	syscall

copy:
	push	%rcx
	lea	msg(%rip), %rsi
	lea	buf(%rip), %rdi
	mov	$6, %ecx
	rep movsb
	pop	%rcx
	ret

	.section .rodata
msg:	.ascii	"hello\n"
	.bss
buf:	.zero	8
	.section .note.GNU-stack,"",@progbits
