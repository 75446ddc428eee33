/* Routines and loops of a recorded image. */
#include "routines.h"

#include <stdlib.h>

struct dcfg_rec_cfg {
	int unused;
};

struct dcfg_rec_cfg *
dcfg_rec_cfg_new(const struct dcfg_rec_graph *g, struct dcfg_error *err)
{
	struct dcfg_rec_cfg *cfg = calloc(1, sizeof *cfg);

	(void)g;
	if (cfg == NULL)
		dcfg_error_set(err, "dcfg-record", "writing the DCFG: out of memory");
	return cfg;
}

void
dcfg_rec_cfg_free(struct dcfg_rec_cfg *cfg)
{
	free(cfg);
}

int
dcfg_rec_write_routines(struct dcfg_output *out, struct dcfg_rec_cfg *cfg,
    const struct dcfg_rec_graph *g, const uint32_t *blocks, size_t n,
    const struct dcfg_rec_elfinfo *info, const char *indent, struct dcfg_error *err)
{
	(void)out; (void)cfg; (void)g; (void)blocks; (void)n; (void)info; (void)indent; (void)err;
	return 0;
}
