/* dcpi-dump: a test reader, written in issue 8. */
#include <stdio.h>

int
main(void)
{
	fputs("dcpi-dump: not written yet\n", stderr);
	return 2;
}
