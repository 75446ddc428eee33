/*
 * SimPoint's answer: t.simpoints ("SLICE CLUSTER" lines), t.weights
 * ("WEIGHT CLUSTER") and t.labels ("CLUSTER DISTANCE", one line per slice).
 */
#include "regions_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/textlines.h"
#include "common/vec.h"

/* Clusters stay far from 2^64, so that a warmup region's id (dcfg-regions(1)) never wraps. */
#define MAX_CLUSTER ((uint64_t)1 << 31)
/* SimPoint writes its weights to 6 significant digits or more. */
#define WEIGHT_SLACK 1e-3

/* What each line of one of the three files gives: two tokens. */
struct line2 {
	struct dcfg_rg_tok t[DCFG_RG_MAX_TOKENS];
	unsigned long line;
};

/* The next line that is not blank, split in two tokens: 1, 0 at the end, -1 with ERR. */
static int
next2(struct dcfg_textlines *tl, struct line2 *l, struct dcfg_error *err)
{
	char *s;
	size_t len, n;
	int r;

	while ((r = dcfg_textlines_next(tl, &s, &len, err)) > 0) {
		l->line = dcfg_textlines_lineno(tl);
		if ((n = dcfg_rg_split(s, l->t)) == 0)
			continue;
		if (n != 2)
			return dcfg_error_at(err, dcfg_textlines_name(tl), l->line,
			    n < 2 ? (unsigned long)len + 1 : l->t[2].col,
			    n < 2 ? "two numbers expected, found one" : "two numbers expected, found more");
		return 1;
	}
	return r;
}

static int
cluster_of(struct dcfg_textlines *tl, const struct line2 *l, size_t i, uint64_t *c,
    struct dcfg_error *err)
{
	if (dcfg_rg_dec(l->t[i].s, l->t[i].len, c) < 0 || *c >= MAX_CLUSTER)
		return dcfg_error_at(err, dcfg_textlines_name(tl), l->line, l->t[i].col,
		    "not a cluster number (0 to %llu)", (unsigned long long)MAX_CLUSTER - 1);
	return 0;
}

static int
by_cluster(const void *a, const void *b)
{
	const struct dcfg_rg_choice *x = a, *y = b;

	return x->cluster < y->cluster ? -1 : x->cluster > y->cluster;
}

static struct dcfg_rg_choice *
find(struct dcfg_rg_answer *a, uint64_t cluster)
{
	struct dcfg_rg_choice key = { .cluster = cluster };

	return bsearch(&key, a->c, a->n, sizeof *a->c, by_cluster);
}

static int
read_simpoints(struct dcfg_rg_answer *a, const char *path, struct dcfg_error *err)
{
	struct dcfg_textlines *tl = dcfg_textlines_open(path, err);
	struct line2 l;
	uint64_t slice, cluster;
	size_t i;
	int r;

	if (tl == NULL)
		return -1;
	while ((r = next2(tl, &l, err)) > 0) {
		if (dcfg_rg_dec(l.t[0].s, l.t[0].len, &slice) < 0) {
			r = dcfg_error_at(err, path, l.line, l.t[0].col, "not a slice number");
			break;
		}
		if ((r = cluster_of(tl, &l, 1, &cluster, err)) < 0)
			break;
		if (dcfg_reserve((void **)&a->c, &a->cap, a->n + 1, sizeof *a->c) < 0) {
			r = dcfg_error_set(err, path, "out of memory");
			break;
		}
		a->c[a->n++] = (struct dcfg_rg_choice){ .slice = slice, .cluster = cluster,
		    .weight = -1, .sp_line = l.line };
	}
	dcfg_textlines_close(tl);
	if (r < 0)
		return -1;
	if (a->n == 0)
		return dcfg_error_at(err, path, 1, 1, "no simulation point: the file is empty");
	qsort(a->c, a->n, sizeof *a->c, by_cluster);
	for (i = 1; i < a->n; i++)
		if (a->c[i].cluster == a->c[i - 1].cluster) {
			unsigned long later = a->c[i].sp_line > a->c[i - 1].sp_line ?
			    a->c[i].sp_line : a->c[i - 1].sp_line;
			return dcfg_error_at(err, path, later, 1, "cluster %llu chosen twice",
			    (unsigned long long)a->c[i].cluster);
		}
	return 0;
}

static int
read_weights(struct dcfg_rg_answer *a, const char *path, struct dcfg_error *err)
{
	struct dcfg_textlines *tl = dcfg_textlines_open(path, err);
	struct dcfg_rg_choice *c;
	struct line2 l;
	uint64_t cluster;
	double w, sum = 0;
	unsigned long last = 0;
	size_t seen = 0, i;
	int r;

	if (tl == NULL)
		return -1;
	while ((r = next2(tl, &l, err)) > 0) {
		if (dcfg_rg_real(l.t[0].s, l.t[0].len, &w) < 0 || w < 0 || w > 1) {
			r = dcfg_error_at(err, path, l.line, l.t[0].col, "not a weight (0 to 1)");
			break;
		}
		if ((r = cluster_of(tl, &l, 1, &cluster, err)) < 0)
			break;
		if ((c = find(a, cluster)) == NULL) {
			r = dcfg_error_at(err, path, l.line, l.t[1].col,
			    "cluster %llu is not in %s", (unsigned long long)cluster, a->sp_path);
			break;
		}
		if (c->weight >= 0) {
			r = dcfg_error_at(err, path, l.line, l.t[1].col, "cluster %llu weighed twice",
			    (unsigned long long)cluster);
			break;
		}
		c->weight = w;
		sum += w;
		last = l.line;
		seen++;
	}
	dcfg_textlines_close(tl);
	if (r < 0)
		return -1;
	if (seen == 0)
		return dcfg_error_at(err, path, 1, 1, "no weight: the file is empty");
	if (seen < a->n)
		for (i = 0; i < a->n; i++)
			if (a->c[i].weight < 0)
				return dcfg_error_at(err, a->sp_path, a->c[i].sp_line, 1,
				    "cluster %llu has no weight in %s",
				    (unsigned long long)a->c[i].cluster, path);
	if (fabs(sum - 1) > WEIGHT_SLACK)
		return dcfg_error_at(err, path, last, 1,
		    "the weights add up to %.6f, not 1", sum);
	return 0;
}

static int
read_labels(struct dcfg_rg_answer *a, const char *path, struct dcfg_error *err)
{
	struct dcfg_textlines *tl = dcfg_textlines_open(path, err);
	struct line2 l;
	uint64_t cluster;
	double distance;
	int r;

	if (tl == NULL)
		return -1;
	while ((r = next2(tl, &l, err)) > 0) {
		if ((r = cluster_of(tl, &l, 0, &cluster, err)) < 0)
			break;
		if (dcfg_rg_real(l.t[1].s, l.t[1].len, &distance) < 0) {
			r = dcfg_error_at(err, path, l.line, l.t[1].col, "not a distance");
			break;
		}
		if (dcfg_reserve((void **)&a->labels, &a->labels_cap, a->n_labels + 1,
		    sizeof *a->labels) < 0) {
			r = dcfg_error_set(err, path, "out of memory");
			break;
		}
		a->labels[a->n_labels++] = (uint32_t)cluster;
	}
	dcfg_textlines_close(tl);
	if (r < 0)
		return -1;
	if (a->n_labels == 0)
		return dcfg_error_at(err, path, 1, 1, "no label: the file is empty");
	return 0;
}

int
dcfg_rg_answer_read(struct dcfg_rg_answer *a, const char *simpoints, const char *weights,
    const char *labels, struct dcfg_error *err)
{
	memset(a, 0, sizeof *a);
	a->sp_path = simpoints;
	a->labels_path = labels;
	if (read_simpoints(a, simpoints, err) < 0 || read_weights(a, weights, err) < 0)
		return -1;
	if (labels && read_labels(a, labels, err) < 0)
		return -1;
	return 0;
}

void
dcfg_rg_answer_free(struct dcfg_rg_answer *a)
{
	free(a->c);
	free(a->labels);
	memset(a, 0, sizeof *a);
}
