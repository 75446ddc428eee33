/*
 * gen-pair: prog.dcfg.json from the walk's counts: the top-level keys, the
 * process with its edges and instruction counts, and the file names; each
 * image's rows, written per routine, are gen-pair-dcfg-image.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen-pair.h"

/* ---- the DCFG ---------------------------------------------------------------- */

/* In the order of enum etype (gen-pair.h). */
static const char *const etype_names[ET_N] = {
	"ENTRY", "EXIT", "BRANCH", "CONDITIONAL_BRANCH", "UNCONDITIONAL_BRANCH",
	"DIRECT_BRANCH", "INDIRECT_BRANCH", "DIRECT_CONDITIONAL_BRANCH",
	"INDIRECT_CONDITIONAL_BRANCH", "DIRECT_UNCONDITIONAL_BRANCH",
	"INDIRECT_UNCONDITIONAL_BRANCH", "REP", "FALL_THROUGH", "CALL",
	"DIRECT_CALL", "INDIRECT_CALL", "RETURN", "CALL_BYPASS", "SYSTEM_CALL",
	"SYSTEM_RETURN", "SYSTEM_CALL_BYPASS", "CONTEXT_CHANGE",
	"CONTEXT_CHANGE_RETURN", "CONTEXT_CHANGE_BYPASS",
	"EXCLUDED_CODE_BYPASS", "UNKNOWN"
};

static uint32_t
node_id(int n)
{
	return n == N_START ? start_id : n == N_END ? end_id : blk[n].id;
}

/* The seed's error of INSTR_COUNT_PER_THREAD (gen-pair.c's top): a few
 * instructions more or fewer per thread, never below 0, in all from -10
 * to 25 and not 0. */
static void
instr_error(uint64_t *instrs, int threads)
{
	int64_t want = below(&G, 4) == 0 ? -(int64_t)between(&G, 1, 10) : (int64_t)between(&G, 1, 25);
	int64_t d, sum = 0;
	int t;

	for (t = 1; t < threads; t++) {
		d = (int64_t)below(&G, 7) - 2;
		if (d < 0 && instrs[t] < (uint64_t)-d)
			d = -(int64_t)instrs[t];
		instrs[t] += (uint64_t)d;
		sum += d;
	}
	d = want - sum;
	if (d < 0 && instrs[0] < (uint64_t)-d)
		d = -(int64_t)instrs[0];
	instrs[0] += (uint64_t)d;
}

enum { P_PER_THREAD, P_COUNT, P_IMAGES, P_EDGES };

static void
write_process(uint32_t pid, int threads, const uint64_t *instrs, uint64_t total)
{
	size_t x;
	int i, k, t, next;

	fprintf(jf, "\"PROCESSES\" : [\n    [ \"PROCESS_ID\", \"PROCESS_DATA\" ],\n"
	    "    [ %" PRIu32 ",\n      { ", pid);
	for (k = 0; k < 4; k++) {
		if (k)
			fprintf(jf, ",\n        ");
		switch (S.proc_order[k]) {
		case P_PER_THREAD:
			fprintf(jf, "\"INSTR_COUNT_PER_THREAD\" : [ ");
			for (t = 0; t < threads; t++)
				fprintf(jf, "%s%" PRIu64, t ? ", " : "", instrs[t]);
			fprintf(jf, " ]");
			break;
		case P_COUNT:
			fprintf(jf, "\"INSTR_COUNT\" : %" PRIu64, total);
			break;
		case P_IMAGES:
			/* in image id order, the images of symbols only among them */
			fprintf(jf, "\"IMAGES\" : [\n          [ \"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\" ]");
			for (i = 0, next = 0; i < nimg; i++) {
				for (; next < nsimg && simg[next].id < img[i].id; next++) {
					fprintf(jf, ",\n");
					write_symimg(&simg[next]);
				}
				fprintf(jf, ",\n");
				write_image(i);
			}
			for (; next < nsimg; next++) {
				fprintf(jf, ",\n");
				write_symimg(&simg[next]);
			}
			fprintf(jf, " ]");
			break;
		default:
			fprintf(jf, "\"EDGES\" : [\n          [ \"EDGE_ID\", \"SOURCE_NODE_ID\", \"TARGET_NODE_ID\",\n"
			    "            \"EDGE_TYPE_ID\", \"COUNT_PER_THREAD\" ]");
			for (x = 0; x < ned; x++) {
				fprintf(jf, ",\n          [ %" PRIu32 ", %" PRIu32 ", %" PRIu32 ", %" PRIu32 ", [ ",
				    ed[x].id, node_id(ed[x].src), node_id(ed[x].dst), etype_id[ed[x].type]);
				for (t = 0; t < threads; t++)
					fprintf(jf, "%s%" PRIu64, t ? ", " : "", counts[(size_t)t * ned + x]);
				fprintf(jf, " ] ]");
			}
			fprintf(jf, " ]");
			break;
		}
	}
	fprintf(jf, " } ] ]");
}

void
write_dcfg(const char *path, int threads, uint32_t pid)
{
	uint64_t instrs[MAX_THREADS] = { 0 }, total = 0;
	uint32_t fid;
	size_t x;
	int i, j, k, t, nfile = 0;
	struct { uint32_t id; char *name; int own; } *files = NULL;
	static char vbuf[1 << 16];

	/* counts */
	for (x = 0; x < ned; x++)
		for (t = 0; t < threads; t++) {
			uint64_t c = counts[(size_t)t * ned + x];
			if (ed[x].dst >= 0)
				blk[ed[x].dst].count += c;
			if (ed[x].src >= 0)
				instrs[t] += c * (uint64_t)blk[ed[x].src].ninstr;
		}
	if (S.delta)
		instr_error(instrs, threads);
	for (t = 0; t < threads; t++)
		total += instrs[t];

	/* file names: images, then the sources their routines use */
	fid = 1 + below(&G, 3);
	files = xrealloc(NULL, 64 * sizeof *files);
	for (i = 0; i < nimg + nsimg; i++) {
		if (i < nimg)
			img[i].file = (int)fid;
		else
			simg[i - nimg].file = (int)fid;
		files[nfile].id = fid;
		files[nfile].own = 0;
		files[nfile++].name = (char *)(i < nimg ? img[i].path : simg[i - nimg].path);
		fid += 1 + below(&G, 2);
	}
	for (i = 0; i < nimg; i++) {
		Img *im = &img[i];
		int ns = (int)count_strs(im->sources);
		if (im->nosrc)
			continue;
		im->srcfile = xrealloc(NULL, (size_t)ns * sizeof *im->srcfile);
		im->srcline = xrealloc(NULL, (size_t)ns * sizeof *im->srcline);
		for (j = 0; j < ns; j++) {
			size_t len = strlen(im->srcdir) + strlen(im->sources[j]) + 1;
			files = xrealloc(files, (size_t)(nfile + 1) * sizeof *files);
			files[nfile].id = fid;
			files[nfile].own = 1;
			files[nfile].name = xrealloc(NULL, len);
			snprintf(files[nfile].name, len, "%s%s", im->srcdir, im->sources[j]);
			nfile++;
			im->srcfile[j] = (int)fid;
			im->srcline[j] = 1 + (int)below(&G, 40);
			fid += 1 + below(&G, 2);
		}
		for (j = im->rt_first; j < im->rt_first + im->rt_n; j++) {
			int s = (j == main_rt || j == worker_rt) ? (j == main_rt ? 0 : 13)
			    : (int)below(&G, (uint32_t)ns);
			rt[j].file = im->srcfile[s];
			rt[j].line0 = im->srcline[s] + 2 + (int)below(&G, 20);
			im->srcline[s] = rt[j].line0 + 4 * rt[j].n + 3;
		}
		free(im->srcfile);
		free(im->srcline);
	}

	jf = fopen(path, "w");
	if (jf == NULL)
		die(strerror(errno), path);
	setvbuf(jf, vbuf, _IOFBF, sizeof vbuf);
	/* the top-level keys in the seed's order */
	fprintf(jf, "{ ");
	for (k = 0; k < 6; k++) {
		if (k)
			fprintf(jf, ",\n  ");
		switch (S.top_order[k]) {
		case 0:
			fprintf(jf, "\"MAJOR_VERSION\" : 1");
			break;
		case 1:
			fprintf(jf, "\"MINOR_VERSION\" : 0");
			break;
		case 2:
			fprintf(jf, "\"FILE_NAMES\" : [\n    [ \"FILE_NAME_ID\", \"FILE_NAME\" ]");
			for (i = 0; i < nfile; i++) {
				fprintf(jf, ",\n    [ %" PRIu32 ", ", files[i].id);
				jstr(files[i].name, S.slash);
				fprintf(jf, " ]");
			}
			fprintf(jf, " ]");
			break;
		case 3:
			fprintf(jf, "\"EDGE_TYPES\" : [\n    [ \"EDGE_TYPE_ID\", \"EDGE_TYPE\" ]");
			for (i = 0; i < ET_N; i++)
				fprintf(jf, ",\n    [ %" PRIu32 ", \"%s\" ]", etype_id[i], etype_names[i]);
			fprintf(jf, " ]");
			break;
		case 4:
			fprintf(jf, "\"SPECIAL_NODES\" : [\n    [ \"NODE_ID\", \"NODE_NAME\" ],\n"
			    "    [ %" PRIu32 ", \"START\" ], [ %" PRIu32 ", \"END\" ], [ %" PRIu32 ", \"UNKNOWN\" ] ]",
			    start_id, end_id, unknown_id);
			break;
		default:
			write_process(pid, threads, instrs, total);
			break;
		}
	}
	fprintf(jf, " }\n");
	if (ferror(jf) || fclose(jf) != 0)
		die("write error", path);
	for (i = 0; i < nfile; i++)
		if (files[i].own)
			free(files[i].name);
	free(files);
}

