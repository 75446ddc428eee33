/*
 * The measuring pass's text kept for the writing pass (encode.h,
 * spill_dir): what pass 3 would write, but for what needs the dictionary,
 * which pass 2 is still measuring. Those parts are marked by bytes no
 * trace text holds: DCFG_SPILL_DICTIONARY, the process's index and ';'
 * where its STRING_DICTIONARY goes; characters of an EDGE_ID_SEQUENCE to
 * compress between DCFG_SPILL_CHARS and DCFG_SPILL_CHARS_END, one piece
 * as the text walk gave it. The file is unlinked once open: nothing is
 * left behind, whatever ends the process.
 */
#ifndef DCFG_ENCODE_SPILL_H
#define DCFG_ENCODE_SPILL_H

#include "encode_state.h"

#define DCFG_SPILL_DICTIONARY '\001'
#define DCFG_SPILL_CHARS '\002'
#define DCFG_SPILL_CHARS_END '\003'

/* A new spill in DIR, for writing. NULL with ERR set (naming NAME). */
struct dcfg_output *dcfg_enc_spill_open(const char *dir, const char *name, struct dcfg_error *err);
void dcfg_enc_spill_close(struct dcfg_output *spill);

/* Pass 3: E's spill read back to E's output. 0, -1 with ERR set. */
int dcfg_enc_spill_replay(struct enc *e);

#endif
