/*
 * The processes and threads that dcfg-expand's -p and -t select, and
 * which of them the trace was found to hold: a selection that names a
 * process or thread the trace lacks is an error (else the user gets an
 * empty stream and exit 0), and the error names what the trace holds.
 *
 * Memory: a byte per -p and -t given, and a few ids held for the message.
 */
#ifndef DCFG_SELECTION_H
#define DCFG_SELECTION_H

#include <stddef.h>
#include <stdint.h>

#include <dcfg/error.h>

#define DCFG_SELECTION_SHOWN 8   /* ids of what the trace holds, named in the error */

struct dcfg_selection_seen {
	uint64_t ids[DCFG_SELECTION_SHOWN];   /* distinct, in file order */
	size_t n;
	int more;                             /* more than those were seen */
};

struct dcfg_selection {
	const uint64_t *pids; size_t n_pids;  /* none: all */
	const uint64_t *tids; size_t n_tids;
	unsigned char *found;                 /* n_pids for the pids, then n_tids */
	struct dcfg_selection_seen processes, threads;   /* threads: of selected processes */
};

/* 0, or -1 when out of memory. The id arrays are kept, not copied. */
int dcfg_selection_init(struct dcfg_selection *s, const uint64_t *pids, size_t n_pids,
    const uint64_t *tids, size_t n_tids);

/* A process (thread) row of the trace: 1 when it is selected. */
int dcfg_selection_process(struct dcfg_selection *s, uint64_t pid);
int dcfg_selection_thread(struct dcfg_selection *s, uint64_t tid);

/*
 * After the whole trace: 0, or -1 with ERR set (at FILE) when a -p or -t
 * selected nothing, naming what the trace holds.
 */
int dcfg_selection_check(const struct dcfg_selection *s, const char *file,
    struct dcfg_error *err);

void dcfg_selection_free(struct dcfg_selection *s);

#endif
