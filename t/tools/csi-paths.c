/* csi-paths: a test reader, written in issue 8. */
#include <stdio.h>

int
main(void)
{
	fputs("csi-paths: not written yet\n", stderr);
	return 2;
}
