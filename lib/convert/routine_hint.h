/*
 * What an error about an unknown --routine NAME adds: the closest names
 * of the profile's functions (common/suggest.h), escaped as every name is,
 * and the command that lists them all.
 */
#ifndef DCFG_ROUTINE_HINT_H
#define DCFG_ROUTINE_HINT_H

#include <stddef.h>

#include "profile.h"

/* The listing command the hint names. */
#define DCFG_ROUTINE_LISTING "dcfg-info --list routines"

/*
 * "; did you mean: A, B, C? (all of them: dcfg-info --list routines)", or
 * the part in parentheses alone when no name is close: into BUF, at most
 * SIZE bytes with the NUL.
 */
void dcfg_routine_hint(const struct dcfg_profile *pf, const char *arg, char *buf, size_t size);

#endif
