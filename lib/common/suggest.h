/*
 * "Did you mean": the names closest to one the user gave that is not
 * there, for a message such as `no routine mian; did you mean: main?`.
 * Close is the optimal string alignment distance (insertions, deletions,
 * substitutions and swaps of two neighbours, one each) between the names
 * with ASCII letters folded to lower case; a name is close enough within
 * a third of the query's length (at least 1), or when it holds the query
 * (3 bytes or more) whatever its case. A query that holds a backslash is
 * also measured against each name as the tables write it (dcfg_escape),
 * since it may have been typed so. The closest first, ties by distance
 * with case kept, then by name; a name is offered once.
 */
#ifndef DCFG_SUGGEST_H
#define DCFG_SUGGEST_H

#include <stddef.h>

#define DCFG_SUGGEST_MAX 3

struct dcfg_suggest {
	const char *query;
	size_t query_len, limit;
	int escaped;               /* the query holds a backslash */
	const char *best[DCFG_SUGGEST_MAX];   /* the caller's names, which must outlive this */
	size_t folded[DCFG_SUGGEST_MAX], exact[DCFG_SUGGEST_MAX];
	size_t n;
	size_t *row;               /* three rows of the distance table */
	size_t cap;
};

void dcfg_suggest_init(struct dcfg_suggest *s, const char *query);
/*
 * Offers NAME, as close as the closer of NAME and its first PART bytes
 * (a name without its qualifier; PART >= strlen(NAME): the whole name
 * only). 0, or -1 when out of memory (the suggestions so far stay).
 */
int dcfg_suggest_add(struct dcfg_suggest *s, const char *name, size_t part);
void dcfg_suggest_free(struct dcfg_suggest *s);

/*
 * "; did you mean: A, B, C?" with each name escaped (dcfg_escape), or ""
 * when none is close: into BUF, at most SIZE bytes with the NUL, cut
 * between names with "..." when it does not fit.
 */
void dcfg_suggest_format(const struct dcfg_suggest *s, char *buf, size_t size);

#endif
