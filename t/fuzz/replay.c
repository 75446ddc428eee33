/*
 * A fuzz target without libFuzzer: runs each file named on the command
 * line through LLVMFuzzerTestOneInput, so the regression inputs and seeds
 * replay in the ordinary and sanitizer builds of `make test`. A file that
 * runs longer than FUZZ_REPLAY_TIMEOUT seconds (default 30) is a hang, as
 * libFuzzer's -timeout makes it: an error, exit 1, naming the file.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *current;

static void
on_alarm(int sig)
{
	static const char a[] = "ERROR: fuzz replay: ", b[] = ": timeout (a hang)\n";

	(void)sig;
	/* only async-signal-safe calls here */
	if (write(2, a, sizeof a - 1) < 0 || write(2, current, strlen(current)) < 0 ||
	    write(2, b, sizeof b - 1) < 0)
		_exit(1);
	_exit(1);
}

int
main(int argc, char **argv)
{
	const char *env = getenv("FUZZ_REPLAY_TIMEOUT");
	unsigned limit = env && atoi(env) > 0 ? (unsigned)atoi(env) : 30;
	struct sigaction sa;
	int i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	for (i = 1; i < argc; i++) {
		FILE *f;
		uint8_t *buf = NULL;
		size_t n = 0, cap = 0, r;
		current = argv[i];
		alarm(limit);
		if ((f = fopen(argv[i], "rb")) == NULL) {
			perror(argv[i]);
			return 2;
		}
		do {
			if (n == cap && (buf = realloc(buf, cap = cap ? 2 * cap : 65536)) == NULL)
				return 2;
			r = fread(buf + n, 1, cap - n, f);
			n += r;
		} while (r > 0);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
		alarm(0);
		free(buf);
	}
	return 0;
}
