/*
 * The temporary files a command has in progress, removed when SIGINT,
 * SIGTERM or SIGHUP ends it, so that an interrupted command leaves
 * nothing behind (dcfg(7), OUTPUT FILES). Only a command turns this on
 * (dcfg_cli_start): in any other program the calls below only do the
 * signal blocking that keeps their callers' steps whole.
 */
#ifndef DCFG_TEMPFILES_H
#define DCFG_TEMPFILES_H

#include <signal.h>

/* Catches the signals above: they remove the temporaries, then kill as they would have. */
void dcfg_temp_catch_signals(void);

/*
 * Holds the signals back (SAVED gets the mask to restore) so that
 * creating a file and recording it, or renaming it and forgetting it,
 * happen whole.
 */
void dcfg_temp_hold_signals(sigset_t *saved);
void dcfg_temp_release_signals(const sigset_t *saved);

/* Records PATH, to be removed on a signal: its slot, or -1 when it is not recorded (not a
 * command, or no slot left: never so in the commands, which have one or two at a time). */
int dcfg_temp_add(const char *path);
/* Forgets the slot dcfg_temp_add gave (after a rename or an unlink); -1 is ignored. */
void dcfg_temp_forget(int slot);

#endif
