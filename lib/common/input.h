/*
 * Transparent input: a path or standard input, plain, gzip or bzip2, told
 * apart by magic bytes rather than by file name.
 */
#ifndef DCFG_INPUT_H
#define DCFG_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <dcfg/error.h>

struct dcfg_input;

enum dcfg_compression { DCFG_PLAIN, DCFG_GZIP, DCFG_BZIP2 };

/* Opens PATH, or standard input when PATH is NULL or "-". NULL on error. */
struct dcfg_input *dcfg_input_open(const char *path, struct dcfg_error *err);
/* Reads FD (closed by dcfg_input_close, or on error), named NAME in messages. */
struct dcfg_input *dcfg_input_open_fd(int fd, const char *name, struct dcfg_error *err);

/*
 * Reads up to SIZE decompressed bytes. Returns the number read, 0 at the
 * true end of the data, -1 on error (a truncated or corrupt compressed file
 * is an error, never an early end).
 */
ssize_t dcfg_input_read(struct dcfg_input *in, void *buf, size_t size,
    struct dcfg_error *err);

/* The name for messages: the path, or "-" for standard input. */
const char *dcfg_input_name(const struct dcfg_input *in);
enum dcfg_compression dcfg_input_compression(const struct dcfg_input *in);
/*
 * Bytes of the file itself (compressed or not) behind the data read so
 * far, for a progress meter to measure against the file's size.
 */
uint64_t dcfg_input_raw_bytes(const struct dcfg_input *in);

/*
 * The identity of the data, for telling files apart whatever their
 * compression: after dcfg_input_sum_start(), before the first read, every
 * byte read is summed into a CRC-32 (the one gzip(1) stores) and counted.
 */
void dcfg_input_sum_start(struct dcfg_input *in);
uint32_t dcfg_input_sum(const struct dcfg_input *in, uint64_t *bytes);

void dcfg_input_close(struct dcfg_input *in);

#endif
