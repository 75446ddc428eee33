/* webgrind-dump: a test reader, written in issue 8. */
#include <stdio.h>

int
main(void)
{
	fputs("webgrind-dump: not written yet\n", stderr);
	return 2;
}
