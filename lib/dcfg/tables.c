/*
 * The public face of the opaque struct dcfg (dcfg.h): each table as an
 * array and its length, the file's version and identity, the library's
 * version.
 */
#include "model.h"

#define TABLE(type, name)                                               \
	const type *                                                    \
	dcfg_##name(const struct dcfg *d, size_t *n)                    \
	{                                                               \
		*n = d->n_##name;                                       \
		return d->n_##name ? d->name : NULL;                    \
	}

TABLE(struct dcfg_process, processes)
TABLE(struct dcfg_image, images)
TABLE(struct dcfg_symbol, symbols)
TABLE(struct dcfg_source_line, source_lines)
TABLE(struct dcfg_block, blocks)
TABLE(struct dcfg_routine, routines)
TABLE(struct dcfg_routine_node, routine_nodes)
TABLE(struct dcfg_loop, loops)
TABLE(struct dcfg_edge, edges)
TABLE(struct dcfg_file_name, file_names)
TABLE(struct dcfg_edge_type, edge_types)
TABLE(struct dcfg_special_node, special_nodes)
TABLE(uint32_t, node_ids)
TABLE(uint64_t, counts)

int
dcfg_file_version(const struct dcfg *d, uint64_t *major, uint64_t *minor)
{
	/* the loader sets bit 1 for MAJOR_VERSION, 2 for MINOR_VERSION: one alone is no version */
	if (d->has_version != 3)
		return 0;
	*major = d->major_version;
	*minor = d->minor_version;
	return 1;
}

void
dcfg_identity(const struct dcfg *d, uint32_t *crc32, uint64_t *bytes)
{
	*crc32 = d->crc32;
	*bytes = d->bytes;
}

const char *
dcfg_library_version(void)
{
	return DCFG_VERSION;
}
