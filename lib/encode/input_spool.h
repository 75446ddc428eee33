/* The encoder's input, read three times: standard input or a pipe is spooled first. */
#ifndef DCFG_ENCODE_INPUT_SPOOL_H
#define DCFG_ENCODE_INPUT_SPOOL_H

#include <stdint.h>

#include <dcfg/error.h>

/*
 * PATH itself when it is a regular file (*FD -1), else standard input
 * ("-" or NULL) or the pipe copied into an unlinked temporary, *FD, of
 * *SIZE bytes. 0, or -1 with ERR set.
 */
int dcfg_encode_spool_input(const char *path, int *fd, uint64_t *size, struct dcfg_error *err);

#endif
