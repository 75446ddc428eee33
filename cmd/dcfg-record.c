/* dcfg-record: placeholder until the driver lands. */
#include <stdio.h>

int
main(void)
{
	fputs("dcfg-record: not built yet\n", stderr);
	return 2;
}
