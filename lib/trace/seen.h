/*
 * A small map from a process or thread id to what the trace reader keeps
 * about it (where it was first listed, where its chunks end): a hash
 * table, so that a trace of many processes or threads, in any order, costs
 * time linear in their number; a clear costs nothing (a generation).
 */
#ifndef DCFG_SEEN_H
#define DCFG_SEEN_H

#include <stddef.h>
#include <stdint.h>

struct dcfg_seen_entry {
	uint64_t id;
	uint64_t end;                      /* a thread's: where its last chunk ends */
	unsigned long line, column;        /* a process's first row; a thread's row of its last chunk */
	int has_chunk;                     /* a thread's: a chunk was read */
	unsigned gen;                      /* the map's generation it was added in; 0: never */
};

struct dcfg_seen {
	struct dcfg_seen_entry *entries;   /* cap slots, a power of two, at most half in use */
	size_t n, cap;
	unsigned gen;
};

/*
 * The entry of ID, added (zeroed but for id) if absent; *FOUND says which.
 * NULL when out of memory. The pointer holds until the next add.
 */
struct dcfg_seen_entry *dcfg_seen_get(struct dcfg_seen *m, uint64_t id, int *found);

void dcfg_seen_clear(struct dcfg_seen *m);
void dcfg_seen_free(struct dcfg_seen *m);

#endif
