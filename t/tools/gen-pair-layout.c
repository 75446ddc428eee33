/*
 * gen-pair: the generated program placed in memory (instruction lengths,
 * addresses, node, edge and edge-type ids) and its edges made. Apart: every
 * id and address is drawn here, after the CFG and before the walk.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gen-pair.h"

/* ---- layout, ids, edges ------------------------------------------------ */

/* the capacities of the arrays grown here */
static size_t capilens, caped;

static int
add_edge(int src, int dst, int type)
{
	GROW(ed, ned, caped);
	ed[ned].src = src;
	ed[ned].dst = dst;
	ed[ned].type = type;
	ed[ned].init = -1;
	/* an edge into a loop's head from outside the loop (not a back
	 * edge) starts the loop's count */
	if (dst >= 0 && blk[dst].headof >= 0) {
		const Loop *L = &lp[blk[dst].headof];
		if (L->kind != 2 && (src < L->head || src >= L->end))
			ed[ned].init = blk[dst].headof;
	}
	return (int)ned++;
}

static const uint8_t body_len[] = { 1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 6, 7, 7, 8, 3, 4, 2, 5 };

static uint8_t
last_len(const Blk *b)
{
	switch (b->term) {
	case T_JMP:
		return below(&G, 2) ? 2 : 5;
	case T_COND: case T_COLD: case T_CONT: case T_LATCH: case T_WHILE: case T_DRIVER:
		return below(&G, 2) ? 2 : 6;
	case T_SWITCH:
		return below(&G, 2) ? 2 : 7;
	case T_CALL:
		if (cs[b->aux].indirect)
			return (uint8_t)(below(&G, 3) == 0 ? 6 : 2 + below(&G, 2));
		return 5;
	case T_RET:
		return 1;
	case T_SYSCALL:
		return 2;
	default:
		return body_len[below(&G, sizeof body_len)];
	}
}

void
layout(void)
{
	int i, j, k, r, *order, n;
	uint64_t off;
	uint32_t id;
	Blk *b;

	/* block shapes */
	for (size_t x = 0; x < nblk; x++) {
		b = &blk[x];
		b->ninstr = below(&G, 10) == 0 ? (int)between(&G, 1, 24)
		    : 1 + (int)below(&G, 3) + (int)below(&G, 4);
		b->ilen = nilens;
		b->size = 0;
		for (k = 0; k < b->ninstr; k++) {
			GROW(ilens, nilens, capilens);
			ilens[nilens] = k == b->ninstr - 1 ? last_len(b)
			    : body_len[below(&G, sizeof body_len)];
			b->lastoff = b->size;
			b->size += ilens[nilens++];
		}
	}
	/* images, routines in shuffled order; node ids in address order */
	id = 1000 + below(&G, 100);
	for (i = 0; i < nimg; i++) {
		Img *im = &img[i];
		n = im->rt_n;
		order = xrealloc(NULL, (size_t)n * sizeof *order);
		for (j = 0; j < n; j++)
			order[j] = im->rt_first + j;
		for (j = n - 1; j > 0; j--) {
			k = (int)below(&G, (uint32_t)j + 1);
			r = order[j], order[j] = order[k], order[k] = r;
		}
		off = im->plt_off = i == 0 ? 0x1020 + 16 * below(&G, 64) : 0x24000 + 0x10 * below(&G, 4096);
		if (im->nplt)
			off += 16 * (uint64_t)(im->nplt + 1) + 16 * below(&G, 8);
		im->text = off;
		for (j = 0; j < n; j++) {
			Rt *ro = &rt[order[j]];
			off = (off + 15) & ~(uint64_t)15;
			ro->off = off;
			for (k = ro->first; k < ro->first + ro->n; k++) {
				blk[k].off = off;
				off += blk[k].size;
				blk[k].id = id;
				id += 1 + (below(&G, 4) == 0 ? below(&G, 6) : 0);
			}
			ro->size = off - ro->off;
			off += below(&G, 4) == 0 ? below(&G, 32) : 0;
		}
		free(order);
		im->size = ((off + 0x1fff) & ~(uint64_t)0xfff) + 0x1000 * below(&G, 64);
	}
	img[0].load = 0x400000;
	img[0].id = 1;
	img[1].load = UINT64_C(0x7f0000000000) + ((uint64_t)below(&G, 0x7ffff) << 20);
	img[1].id = 2 + (int)below(&G, 3);
	if (nimg == 3) {
		img[2].load = ((img[1].load + img[1].size + 0xfff) & ~(uint64_t)0xfff) +
		    0x200000 * between(&G, 1, 16);
		img[2].id = img[1].id + 1 + (int)below(&G, 3);
	}
	/* the images of symbols only: libdl after the libraries, [vdso] high */
	for (i = 0; i < nsimg; i++) {
		SymImg *si = &simg[i];
		uint64_t o = 0x1000;
		const Img *last = &img[nimg - 1];
		for (j = 0; si->names[j] && j < 16; j++) {
			const char *nm = si->names[j];
			uint32_t sz = strcmp(nm, "_init") == 0 ? 24 : strcmp(nm, "_fini") == 0 ? 9
			    : strstr(nm, "plt") ? 16 : 32 + 16 * below(&G, 24);
			o = (o + 15) & ~(uint64_t)15;
			si->off[j] = (uint32_t)o;
			si->sz[j] = sz;
			o += sz;
		}
		si->n = j;
		si->size = (o + 0xfff) & ~(uint64_t)0xfff;
		si->id = (i ? simg[i - 1].id : last->id) + 1 + (int)below(&G, 2);
		si->load = si->names == vdso_syms
		    ? UINT64_C(0x7ffc00000000) + ((uint64_t)below(&G, 0xfffff) << 12)
		    : ((last->load + last->size + 0xfff) & ~(uint64_t)0xfff) + 0x200000 * between(&G, 20, 40);
	}
	start_id = 1 + below(&G, 300);
	end_id = start_id + 1 + below(&G, 300);
	unknown_id = end_id + 1 + below(&G, 300);
	/* edge-type ids: increasing with gaps, then shuffled */
	{
		uint32_t v = 1 + below(&G, 4);
		for (i = 0; i < ET_N; i++) {
			etype_id[i] = v;
			v += 1 + below(&G, 3);
		}
		for (i = ET_N - 1; i > 0; i--) {
			uint32_t t;
			k = (int)below(&G, (uint32_t)i + 1);
			t = etype_id[i], etype_id[i] = etype_id[k], etype_id[k] = t;
		}
	}
}

void
make_edges(void)
{
	size_t x, i;
	int b, t, e, j;

	entry_edge[0] = add_edge(N_START, rt[main_rt].entry, ET_ENTRY);
	entry_edge[1] = add_edge(N_START, rt[worker_rt].entry, ET_ENTRY);
	for (x = 0; x < nblk; x++) {
		Blk *bk = &blk[x];
		b = (int)x;
		switch (bk->term) {
		case T_FALL:
			bk->s0 = add_edge(b, b + 1, ET_FALL_THROUGH);
			break;
		case T_JMP:
			bk->s0 = add_edge(b, bk->s0, ET_DIRECT_UNCONDITIONAL_BRANCH);
			break;
		case T_SYSCALL:
			bk->s0 = add_edge(b, b + 1, ET_SYSTEM_CALL_BYPASS);
			break;
		case T_COND: case T_COLD: case T_CONT: case T_LATCH: case T_WHILE: case T_DRIVER:
			bk->s0 = add_edge(b, bk->s0, ET_DIRECT_CONDITIONAL_BRANCH);
			bk->s1 = add_edge(b, bk->s1, ET_FALL_THROUGH);
			break;
		case T_SWITCH:
			for (j = 0; j < sw[bk->aux].n; j++) {
				i = (size_t)sw[bk->aux].first + (size_t)j;
				sc_edge[i] = add_edge(b, sc_blk[i], ET_INDIRECT_UNCONDITIONAL_BRANCH);
			}
			break;
		case T_CALL: {
			Call *c = &cs[bk->aux];
			for (j = 0; j < c->n; j++) {
				i = (size_t)c->first + (size_t)j;
				ct_edge[i] = add_edge(b, rt[ct_rt[i]].entry,
				    c->indirect ? ET_INDIRECT_CALL : ET_DIRECT_CALL);
			}
			bk->s1 = add_edge(b, b + 1, ET_CALL_BYPASS);
			for (j = 0; j < c->n; j++) {
				i = (size_t)c->first + (size_t)j;
				t = ct_rt[i];
				ct_ret[i] = (int)ned;
				for (e = 0; e < rt[t].nexits; e++)
					add_edge(exits[rt[t].exit_first + e], b + 1, ET_RETURN);
			}
			break;
		}
		case T_RET:
			if (rt[bk->rt].root)
				bk->s0 = add_edge(b, N_END, ET_EXIT);
			break;
		default:
			die("internal error: open block", NULL);
		}
	}
	/* edge ids: increasing with gaps, then shuffled */
	{
		uint32_t v = 1 + below(&G, 50);
		for (x = 0; x < ned; x++) {
			ed[x].id = v;
			v += 1 + below(&G, 3);
		}
		for (x = ned - 1; x > 0; x--) {
			uint32_t tmp;
			i = below(&G, (uint32_t)x + 1);
			tmp = ed[x].id, ed[x].id = ed[i].id, ed[i].id = tmp;
		}
	}
}

