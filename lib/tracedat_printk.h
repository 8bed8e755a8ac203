/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracedat_printk: the printk formats (and the size of the kallsyms) of a
 * trace.dat, checked the way libtracecmd reads them and libtraceevent
 * parses them, so that a damaged file is refused before either reads
 * outside its buffers.
 */
#ifndef LIBSTACKMAP_TRACEDAT_PRINTK_H
#define LIBSTACKMAP_TRACEDAT_PRINTK_H
#include <stddef.h>

#include "sm_err.h"

/**
 * stackmap_printk_check_text() - does libtraceevent parse @text inside it?
 * @text: printk formats as trace-cmd stores them: lines of
 *	"ADDRESS : FORMAT", each ended by '\n'
 * @len: bytes of @text; the parse ends at the first NUL among them, as
 *	libtraceevent's strdup()ed copy does
 * @line: set to the number (from 1, every '\n' counted) of the line
 *	refused
 *
 * Mirrors libtraceevent 1.7.1 src/event-parse.c tep_parse_printk_formats()
 * and tep_register_print_string() on each non-empty line (strtok_r() on
 * "\n"): the line is cut at its first ':' after any leading ones
 * (strtok_r() on ":"), the format is what follows that ':' less one byte
 * (the space) and less a leading '"', and a copy of it is read from its
 * last byte back to its third last.  A line of ':' only ends the parse
 * there ("printk format with empty entry"): what follows is not read.
 *
 * Return: NULL when every line the parse reaches keeps it inside the text
 * and its copies; else why line *@line does not, a static string: "has no
 * ':' (libtraceevent would read past it)" (the format would start past the
 * line's end: past the copy for the last line), "ends at its ':'
 * (libtraceevent would read past it)" (likewise), "has a format of fewer
 * than 3 bytes (libtraceevent would read before it)" (counted after the
 * leading '"', its closing '"' included: a format "x" or "").
 */
const char *stackmap_printk_check_text(const char *text, size_t len,
				       unsigned int *line);

/**
 * stackmap_tracedat_check_printk() - can libtracecmd read, and
 * libtraceevent parse, a trace.dat's printk formats and kallsyms inside
 * their buffers?
 * @path: a trace.dat
 * @err: set when not, "PATH: offset N: WHAT: why" with N the offset of the
 *	section (version 6: of the part's size) and WHAT "printk formats" or
 *	"kallsyms":
 *	"line K has no ':' (libtraceevent would read past it)" and the other
 *	reasons of stackmap_printk_check_text();
 *	"size S: 2 GiB or more (libtracecmd would overflow its buffer)";
 *	"compressed block: ..." (tracedat_block.h td_block()'s -E2BIG);
 *	"S bytes: more than M read" (a text too large to check)
 *
 * Layout (trace-cmd 3.1.6 lib/trace-cmd/trace-input.c, every number in the
 * file's byte order, given by the header's endianness byte).  Version 7:
 * every KALLSYMS (19) and PRINTK (20) option of the option chain (each
 * section read to its DONE option, whatever its size says, as
 * handle_options() reads it) gives, in its first 8 bytes, the offset of a
 * section (handle_options(); an offset
 * of 0 places none): a 16-byte header (u16 id, which must be the option's,
 * u16 flags, u32 description, u64 size; handle_section()), then its data.
 * When the flags have TRACEDAT_SEC_COMPRESS and the file header names an
 * algorithm other than "none", the data is one compressed block
 * (tracedat_block.h td_block(): u32 compressed size, u32 uncompressed
 * size, the compressed bytes, zstd or zlib), read into memory as
 * in_uncompress_block() does.  The data, uncompressed: a u32 size S, then
 * S bytes of text (read_proc_kallsyms(), read_ftrace_printk()).
 * Version 6: the same u32 size and text after the event formats, kallsyms
 * then printk formats (read_headers_v6(); tracedat_file.h td6_headers()).
 *
 * libtracecmd 1.3 reads S into malloc(S + 1) in 32 bits (0 bytes for
 * 0xffffffff, into which it reads the rest of an uncompressed file) and
 * copies it from a compressed block with an int length (negative from
 * 2 GiB on: 0xfffffffc to 0xffffffff make a memcpy() of a negative size);
 * libtraceevent 1.7.1's tep_parse_printk_formats() reads past its copy of
 * the text on the lines stackmap_printk_check_text() refuses.  Its
 * tep_parse_kallsyms() does not read outside the text on any input
 * (sscanf() within each line, writes inside it), so the kallsyms' text is
 * not checked, only their size.
 *
 * Return: 0, also when libtracecmd would not read the text (no such
 * section, a section whose id is not its option's, a size or a block
 * beyond the end of the file or of the uncompressed data, a block that
 * does not uncompress, an algorithm libtracecmd has none for, options or
 * version 6 headers that cannot be walked: the other checks and libtracecmd
 * say so); -EBADMSG for a line libtraceevent would read outside of;
 * -E2BIG for a size of 2 GiB or more, or a text or block of more than
 * 256 MiB (not read to check it); -ENOMEM; -errno when @path cannot be
 * opened or read.
 */
int stackmap_tracedat_check_printk(const char *path, struct sm_err *err);

#endif /* LIBSTACKMAP_TRACEDAT_PRINTK_H */
