/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Standard output set aside around a library call that prints to it.
 *
 * libtracecmd 1.3 (trace-cmd 3.1.6) prints one line to stdout for each
 * HOOK option (id 6, what `trace-cmd record -H` stores) of a file it opens:
 * tracecmd_create_event_hook() in lib/trace-cmd/trace-hooks.c ends in
 * printf("start %s:%s:%s (%s) end %s:%s:%s (%s)\n", ...), called from
 * handle_options() (lib/trace-cmd/trace-input.c).  fgdecode's results go to
 * stdout (--folded, --pprof, --json ...), where that line would sit as if
 * it were one of them; around the calls that read options, stdout goes to
 * stderr instead, so the line is still shown and never mixed into a result.
 */
#ifndef STACKMAP_STDOUT_ASIDE_H
#define STACKMAP_STDOUT_ASIDE_H

/**
 * sm_stdout_aside() - send what is written to stdout (file descriptor 1)
 *	to stderr (2) until sm_stdout_back()
 *
 * Flushes stdout's buffer first, so that nothing written before goes to
 * stderr.  Not reentrant: one aside at a time.
 *
 * Return: the descriptor of the real stdout, for sm_stdout_back(); -1 when
 * stdout could not be moved (dup() or dup2() failed; errno set), and then
 * it stays where it was.
 */
int sm_stdout_aside(void);

/**
 * sm_stdout_back() - end sm_stdout_aside(): flush what the library wrote
 *	(to stderr) and give stdout its own descriptor back
 * @saved: what sm_stdout_aside() returned (nothing is done for -1)
 *
 * Return: 0, or -1 with errno set when the descriptor could not be put
 * back (stdout then still goes to stderr).
 */
int sm_stdout_back(int saved);

#endif /* STACKMAP_STDOUT_ASIDE_H */
