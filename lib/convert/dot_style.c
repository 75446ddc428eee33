/*
 * dcfg-convert --to dot: what makes a picture readable without the man
 * page beside it: the title (program, process, threads, total, exact or
 * estimated), the heat colours and the legend that names them, short edge
 * tags, and a block's source line. The exact text is in dcfg-convert(1).
 */
#include <string.h>

#include "dot.h"

/*
 * Heat buckets, hottest first: a share of the scope's instructions of at
 * least PERCENT gets FILL. Light fills (YlOrRd), so black text stays
 * readable on every one; the coldest is the node default, white.
 */
static const struct {
	unsigned percent;
	const char *fill, *range;
} heat[] = {
	{ 50, "#fd8d3c", "50% or more" },
	{ 20, "#feb24c", "20% to 50%" },
	{ 5, "#fed976", "5% to 20%" },
	{ 1, "#ffeda0", "1% to 5%" },
	{ 0, "#ffffff", "under 1%" },
};

#define N_HEAT (sizeof heat / sizeof heat[0])

void
dcfg_dot_fill(struct dcfg_output *out, uint64_t value, uint64_t total)
{
	size_t i;

	/* value / total >= percent / 100, exactly, in 128 bits */
	for (i = 0; i + 1 < N_HEAT; i++)
		if ((unsigned __int128)value * 100 >= (unsigned __int128)total * heat[i].percent &&
		    total > 0)
			break;
	if (i + 1 == N_HEAT)
		return;
	dcfg_out_str(out, ", fillcolor=\"");
	dcfg_out_str(out, heat[i].fill);
	dcfg_out_char(out, '"');
}

/* PATH's last part; PATH itself when it ends in a slash. */
static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

/*
 * The program: the base name of the main image's file; the Callgrind
 * file's cmd: line names the same image.
 */
static const char *
program(const struct dcfg_profile *pf)
{
	const char *name = dcfg_profile_main_image_name(pf);

	return name ? base_name(name) : NULL;
}

void
dcfg_dot_title(struct dcfg_output *out, const struct dcfg_profile *pf, uint32_t thread,
    const struct dcfg_convert_options *o, const char *what)
{
	const char *prog = program(pf);

	dcfg_out_str(out, "label=\"");
	if (prog)
		dcfg_dot_escaped(out, prog);
	else
		dcfg_out_str(out, "(unknown program)");
	dcfg_out_str(out, ", process ");
	dcfg_out_u64(out, pf->p->pid);
	if (thread == DCFG_ALL_THREADS) {
		dcfg_out_str(out, pf->p->threads == 1 ? ", " : ", all ");
		dcfg_out_u64(out, pf->p->threads);
		dcfg_out_str(out, pf->p->threads == 1 ? " thread: " : " threads: ");
	} else {
		dcfg_out_str(out, ", thread ");
		dcfg_out_u64(out, thread);
		dcfg_out_str(out, ": ");
	}
	dcfg_out_u64(out, pf->total);
	dcfg_out_str(out, " instructions\\n");
	dcfg_out_str(out, what);
	if (o->cmd) {
		dcfg_out_str(out, "\\ncmd: ");
		dcfg_dot_escaped(out, o->cmd);
	}
	dcfg_out_str(out, "\";\nlabelloc=t;\n");
}

void
dcfg_dot_legend(struct dcfg_output *out, uint64_t total, const char *fill, const char *lines)
{
	size_t i;

	dcfg_out_str(out, "legend [shape=none, margin=0, style=\"\", label=<<table border=\"0\" "
	    "cellborder=\"1\" cellspacing=\"0\" cellpadding=\"3\"><tr><td colspan=\"5\">fill: ");
	dcfg_out_str(out, fill);
	dcfg_out_str(out, ", share of the ");
	dcfg_out_u64(out, total);
	dcfg_out_str(out, " instructions</td></tr><tr>");
	for (i = 0; i < N_HEAT; i++) {
		dcfg_out_str(out, "<td bgcolor=\"");
		dcfg_out_str(out, heat[i].fill);
		dcfg_out_str(out, "\">");
		dcfg_out_str(out, heat[i].range);
		dcfg_out_str(out, "</td>");
	}
	dcfg_out_str(out, "</tr><tr><td colspan=\"5\" align=\"left\" balign=\"left\">");
	dcfg_out_str(out, lines);
	dcfg_out_str(out, "</td></tr></table>>];\n");
}

/* Short tags by kind; NULL for the flow a routine's picture expects (branch, fall-through). */
static const char *
edge_tag(enum dcfg_edge_kind kind)
{
	switch (kind) {
	case DCFG_EDGE_BRANCH: case DCFG_EDGE_DIRECT_BRANCH:
	case DCFG_EDGE_CONDITIONAL_BRANCH: case DCFG_EDGE_DIRECT_CONDITIONAL_BRANCH:
	case DCFG_EDGE_FALL_THROUGH:
		return NULL;
	case DCFG_EDGE_UNCONDITIONAL_BRANCH: case DCFG_EDGE_DIRECT_UNCONDITIONAL_BRANCH:
		return "jmp";
	case DCFG_EDGE_INDIRECT_BRANCH: case DCFG_EDGE_INDIRECT_UNCONDITIONAL_BRANCH:
		return "ind-jmp";
	case DCFG_EDGE_INDIRECT_CONDITIONAL_BRANCH: return "ind-br";
	case DCFG_EDGE_REP: return "rep";
	case DCFG_EDGE_CALL: case DCFG_EDGE_DIRECT_CALL: return "call";
	case DCFG_EDGE_INDIRECT_CALL: return "ind-call";
	case DCFG_EDGE_RETURN: return "ret";
	case DCFG_EDGE_CALL_BYPASS: return "bypass";
	case DCFG_EDGE_SYSTEM_CALL: return "syscall";
	case DCFG_EDGE_SYSTEM_RETURN: return "sysret";
	case DCFG_EDGE_SYSTEM_CALL_BYPASS: return "sys-bypass";
	case DCFG_EDGE_CONTEXT_CHANGE: return "ctx";
	case DCFG_EDGE_CONTEXT_CHANGE_RETURN: return "ctx-ret";
	case DCFG_EDGE_CONTEXT_CHANGE_BYPASS: return "ctx-bypass";
	case DCFG_EDGE_EXCLUDED_CODE_BYPASS: return "excl-bypass";
	case DCFG_EDGE_INTERRUPT: return "int";
	case DCFG_EDGE_INTERRUPT_RETURN: return "int-ret";
	case DCFG_EDGE_INTERRUPT_BYPASS: return "int-bypass";
	case DCFG_EDGE_UNKNOWN_IMAGE_BYPASS: return "img-bypass";
	case DCFG_EDGE_UNKNOWN: return "unknown";
	case DCFG_EDGE_ENTRY: return "entry";
	case DCFG_EDGE_EXIT: return "exit";
	case DCFG_EDGE_OTHER: return "other";   /* the caller shows the name instead */
	case DCFG_EDGE_UNDEFINED: default: return "?";
	}
}

void
dcfg_dot_edge_label(struct dcfg_output *out, const struct dcfg_profile *pf,
    const struct dcfg_edge *e, uint64_t count)
{
	const struct dcfg *d = pf->d;
	const char *tag = edge_tag(e->kind);
	uint32_t ti;

	/* A name this version does not know says more than "other": shown escaped. */
	if (e->kind == DCFG_EDGE_OTHER &&
	    (ti = dcfg_idmap_get(&d->edge_type_by_id, e->type_id)) != DCFG_NONE) {
		dcfg_dot_escaped(out, dcfg_string(d, d->edge_types[ti].name));
		dcfg_out_char(out, ' ');
	} else if (tag) {
		dcfg_out_str(out, tag);
		dcfg_out_char(out, ' ');
	}
	dcfg_out_u64(out, count);
}

void
dcfg_dot_source(struct dcfg_output *out, const struct dcfg_profile *pf, uint64_t addr,
    const char *before)
{
	const struct dcfg_source_line *src = dcfg_source_at(pf->d, pf->p, addr);
	const char *file;

	if (src == NULL)
		return;
	file = dcfg_file_name(pf->d, src->file_name_id);
	file = file ? base_name(file) : "???";
	dcfg_out_str(out, before);
	dcfg_dot_escaped(out, file);
	dcfg_out_char(out, ':');
	dcfg_out_u64(out, src->line);
}
