/*
 * Test driver for the progress meter (lib/common/progress.h): drives it with a
 * fake clock and given byte counts, writing what it draws to standard
 * output, so that bats tests can check the exact text without timing
 * anything. Not installed.
 *
 *   progress-meter STEP...
 *     at SECONDS          the clock reads SECONDS from now on
 *     width COLUMNS       the terminal's width (default: no limit)
 *     file PATH UNIT      reading of PATH begins ("-": standard input;
 *                         UNIT "-": no count)
 *     pass P N            pass P of N over it
 *     update BYTES UNITS  BYTES and UNITS read so far
 *     bytes BYTES         the same through the callback (units unchanged)
 *     done                the file is done
 *     end                 the work is done
 *
 * The meter is forced on (as --progress); TERM is read as the commands
 * read it: dumb, empty or unset draws without escape sequences.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/progress.h"

static double
fake(void *ctx)
{
	return *(const double *)ctx;
}

static void
usage(const char *what)
{
	fprintf(stderr, "progress-meter: %s\n", what);
	exit(2);
}

int
main(int argc, char **argv)
{
	struct dcfg_progress pg;
	double now = 0.0;
	int i;

	dcfg_progress_init(&pg, "meter", DCFG_PROGRESS_ON);
	pg.to = stdout;
	pg.width = 0;
	pg.clock = fake;
	pg.clock_ctx = &now;
	for (i = 1; i < argc; i++) {
		const char *s = argv[i];
		int left = argc - i - 1;
		if (strcmp(s, "at") == 0 && left >= 1) {
			now = strtod(argv[++i], NULL);
		} else if (strcmp(s, "width") == 0 && left >= 1) {
			pg.width = atoi(argv[++i]);
		} else if (strcmp(s, "file") == 0 && left >= 2) {
			const char *unit = strcmp(argv[i + 2], "-") == 0 ? NULL : argv[i + 2];
			dcfg_progress_file(&pg, NULL, argv[i + 1], unit);
			i += 2;
		} else if (strcmp(s, "pass") == 0 && left >= 2) {
			dcfg_progress_pass(&pg, atoi(argv[i + 1]), atoi(argv[i + 2]));
			i += 2;
		} else if (strcmp(s, "update") == 0 && left >= 2) {
			dcfg_progress_update(&pg, strtoull(argv[i + 1], NULL, 10),
			    strtoull(argv[i + 2], NULL, 10));
			i += 2;
		} else if (strcmp(s, "bytes") == 0 && left >= 1) {
			dcfg_progress_bytes(&pg, strtoull(argv[++i], NULL, 10));
		} else if (strcmp(s, "done") == 0) {
			dcfg_progress_done(&pg);
		} else if (strcmp(s, "end") == 0) {
			dcfg_progress_end(&pg);
		} else {
			usage(s);
		}
	}
	return 0;
}
