/*
 * Which of its own descriptors a command's output name means, so that
 * the output is written through it in place rather than replaced by a
 * rename (output.h, dcfg(7) OUTPUT FILES).
 */
#ifndef DCFG_DESCRIPTOR_H
#define DCFG_DESCRIPTOR_H

#include <sys/stat.h>

#include <dcfg/error.h>

/*
 * The descriptor an output named PATH is written through, in place, or
 * -1 for a file that is written by rename: the one PATH names
 * (/dev/stdout, /dev/fd/N, /proc/self/fd/N, through links), or one open
 * for writing on the file PATH is (TARGET, PATH's stat(2), or NULL when
 * there is none): standard output first. A rename would replace the file
 * under them: what it held ("-o /dev/stdout >> log") would be lost, and
 * all that is written to them afterwards too. -2 with ERR set when PATH
 * names a descriptor not open for writing.
 */
int dcfg_output_descriptor(const char *path, const struct stat *target,
    struct dcfg_error *err);

#endif
