// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode's pipeline: read a trace.dat with libtracecmd (see read.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fault.h"
#include "read.h"
#include "stdout_aside.h"
#include "tracecmd_private.h"
#include "tracedat_options.h"
#include "tracedat_printk.h"

/*
 * Check the header before libtracecmd reads it (see
 * stackmap_tracedat_check_header(): 3.1.6 frees twice on a version 7 file
 * cut inside its first section offset); a stack_map listing gets a pointer
 * to fgdecode map (-EINVAL).  Return: 0, -EINVAL,
 * stackmap_tracedat_check_header()'s -EBADMSG or -errno.
 */
static int check_header(int fd, struct sm_err *err)
{
	static const char listing[] = "# generation ";
	char buf[sizeof(listing) - 1];

	if (pread(fd, buf, sizeof(buf), 0) == (ssize_t)sizeof(buf) &&
	    !memcmp(buf, listing, sizeof(buf)))
		return sm_err_code(err, -EINVAL, "a stack_map listing, not a trace.dat: read it with fgdecode map");
	return stackmap_tracedat_check_header(fd, err);
}

int reader_check(const char *path, struct sm_err *err)
{
	struct stat st;
	int fd, ret;

	/* Before open(), which waits for a FIFO's writer. */
	if (!stat(path, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return sm_err_code(err, -ESPIPE, "not seekable (a pipe or device): save the trace.dat to a file first");
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		ret = -errno;
		sm_err_set(err, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	if (S_ISDIR(st.st_mode))
		ret = sm_err_code(err, -EISDIR, "%s", strerror(EISDIR));
	else if (!S_ISREG(st.st_mode))
		ret = sm_err_code(err, -ESPIPE, "not seekable (a pipe or device): save the trace.dat to a file first");
	else
		ret = check_header(fd, err);
	close(fd);
	return ret;
}

/* Find and check the kernel_stack event, if the trace has it: 0, -EPROTO. */
static int find_kstack(struct reader *r, struct sm_err *err)
{
	struct reader_kstack *k = &r->kstack;

	r->ids[READER_KSTACK] = -1;
	k->event = tep_find_event_by_name(r->tep, "ftrace", "kernel_stack");
	if (!k->event)
		return 0;
	k->size = tep_find_field(k->event, "size");
	k->caller = tep_find_field(k->event, "caller");
	if (!k->size || !k->caller ||
	    (k->size->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) ||
	    k->size->size < 1 || k->size->size > 8 ||
	    !(k->caller->flags & TEP_FIELD_IS_ARRAY)) {
		return sm_err_code(err, -EPROTO, "event ftrace:kernel_stack: no numeric field 'size' or no array field 'caller'");
	}
	r->ids[READER_KSTACK] = k->event->id;
	return 0;
}

/*
 * Find and check the stackmap events the trace holds.  Return: 0,
 * tepstack_fields_init()'s -ENOENT or -EPROTO, find_kstack()'s -EPROTO.
 */
static int find_events(struct reader *r, struct sm_err *err)
{
	struct sm_err terr;
	struct tep_event *event;
	int kind, ret;

	for (kind = 0; kind < TEPSTACK_NR_KINDS; kind++) {
		r->ids[kind] = -1;
		event = tep_find_event_by_name(r->tep, STACKMAP_SYSTEM,
					       tepstack_event_name(kind));
		if (!event)
			continue;
		ret = tepstack_fields_init(&r->fields[kind], event, &terr);
		if (ret)
			return sm_err_code(err, ret, "event %s:%s",
					   STACKMAP_SYSTEM, terr.msg);
		r->ids[kind] = event->id;
	}
	return find_kstack(r, err);
}

/*
 * Where reader_type() and reader_context() read the event id and the
 * flags, if they can (read.h).
 */
static void find_common_fields(struct reader *r)
{
	struct tep_event **events = tep_list_events(r->tep, TEP_EVENT_SORT_ID);
	struct tep_format_field *f;

	r->type_offset = -1;
	r->flags_offset = -1;
	if (!events || !events[0])
		return;
	f = tep_find_common_field(events[0], "common_type");
	if (f && f->size == 2 && f->offset >= 0 &&
	    tep_is_file_bigendian(r->tep) == tep_is_local_bigendian(r->tep))
		r->type_offset = f->offset;
	f = tep_find_common_field(events[0], "common_flags");
	if (f && f->size == 1 && f->offset >= 0)
		r->flags_offset = f->offset;
}

/* CPUs of a buffer: those of its own handle's tep, at least 0. */
static int buffer_cpus(struct tracecmd_input *handle)
{
	int n = tep_get_cpus(tracecmd_get_tep(handle));

	return n > 0 ? n : 0;
}

/*
 * Open the top buffer and every instance; lay out the streams.  Return: 0,
 * -EIO when libtracecmd cannot read an instance, -ENOMEM.
 */
static int open_buffers(struct reader *r, struct sm_err *err)
{
	int nr_inst = tracecmd_buffer_instances(r->handle);
	int i, cpu, s = 0;

	if (nr_inst < 0)
		nr_inst = 0;
	r->buffers = calloc(nr_inst + 1, sizeof(*r->buffers));
	if (!r->buffers)
		goto nomem;
	r->buffers[0].handle = r->handle;
	r->buffers[0].nr_cpus = r->nr_cpus;
	r->nr_buffers = 1;
	r->nr_streams = r->nr_cpus;
	for (i = 0; i < nr_inst; i++) {
		struct reader_buffer *b = &r->buffers[r->nr_buffers];

		b->handle = FAULT_GUARDED(-1,
			tracecmd_buffer_instance_handle(r->handle, i));
		if (!b->handle)
			return sm_err_code(err, -EIO, "cannot read buffer instance %d ('%s')",
					   i, tracecmd_buffer_instance_name(r->handle, i) ?: "?");
		b->name = tracecmd_buffer_instance_name(r->handle, i);
		b->nr_cpus = buffer_cpus(b->handle);
		r->nr_streams += b->nr_cpus;
		r->nr_buffers++;
	}
	r->queues = calloc(r->nr_streams + 1, sizeof(*r->queues));
	r->stream_buffer = calloc(r->nr_streams + 1, sizeof(int));
	r->stream_cpu = calloc(r->nr_streams + 1, sizeof(int));
	if (!r->queues || !r->stream_buffer || !r->stream_cpu)
		goto nomem;
	for (i = 0; i < r->nr_buffers; i++)
		for (cpu = 0; cpu < r->buffers[i].nr_cpus; cpu++, s++) {
			r->stream_buffer[s] = i;
			r->stream_cpu[s] = cpu;
		}
	return 0;
nomem:
	return sm_err_code(err, -ENOMEM, "%s", strerror(ENOMEM));
}

/* Free the stream tables and close the instance handles (not the top). */
static void close_buffers(struct reader *r)
{
	int i;

	for (i = 1; i < r->nr_buffers; i++)
		tracecmd_close(r->buffers[i].handle);
	free(r->buffers);
	free(r->queues);
	free(r->stream_buffer);
	free(r->stream_cpu);
	r->buffers = NULL;
	r->queues = NULL;
	r->nr_buffers = 0;
	r->nr_streams = 0;
}

/**
 * reader_uname() - the uname the recording machine reported
 * @r: an open reader
 *
 * Return: "Linux HOST RELEASE #VERSION ..." from the trace's UNAME option,
 * or NULL when the trace has none.  Owned by the reader.
 */
const char *reader_uname(const struct reader *r)
{
	return tracecmd_get_uname(r->handle);
}

/*
 * libtracecmd refused @path: was it cut short?  Then @err says where
 * (stackmap_tracedat_check_extent(): version 7 files) and true is returned.
 */
static bool truncated(const char *path, struct sm_err *err)
{
	struct sm_err why;
	struct stat st;

	if (stackmap_tracedat_check_extent(path, &why) != -EBADMSG ||
	    !strstr(why.msg, "beyond end of file") || stat(path, &st))
		return false;
	sm_err_set(err, "truncated: the file ends at byte %lld, before what its options place (%s)",
		   (long long)st.st_size, sm_err_after_path(&why, path));
	return true;
}

/*
 * libtracecmd's open of @path; NULL when it refuses the file (*@headers: it
 * read the headers).  tracecmd_open() in two steps, as it does them itself
 * (trace-input.c, tracecmd_open_fd(): headers, then tracecmd_init_data()).
 * When the data part is truncated, 3.1.6 frees the half-built handle with
 * tracecmd_close(), which dereferences NULL; here the handle is left
 * allocated instead and the caller exits with the error (a file a salvage
 * can repair never gets here: open_trace()).  Both steps read options, whose
 * HOOKs libtracecmd prints to stdout: stdout is set aside meanwhile
 * (stdout_aside.h).
 */
static struct tracecmd_input *open_file(const char *path, unsigned int flags,
					bool *headers)
{
	struct tracecmd_input *handle;
	int saved = sm_stdout_aside();

	*headers = false;
	handle = FAULT_GUARDED(-1, tracecmd_open_head(path,
			flags & READER_NO_PLUGINS ? TRACECMD_FL_LOAD_NO_PLUGINS : 0));
	if (handle) {
		*headers = true;
		if (FAULT_GUARDED(-1, tracecmd_init_data(handle)) < 0)
			handle = NULL;
	}
	sm_stdout_back(saved);
	return handle;
}

/* The repaired copy of @r->path for libtracecmd; NULL with @err set. */
static struct tracecmd_input *open_copy(struct reader *r, unsigned int flags,
					const char *cut, struct sm_err *err)
{
	struct tracecmd_input *handle;
	bool headers;

	snprintf(r->salvage_path, sizeof(r->salvage_path), "/proc/self/fd/%d",
		 r->salvage.fd);
	handle = open_file(r->salvage_path, flags, &headers);
	if (!handle) {
		sm_err_set(err, "%s; its repaired copy is not readable either",
			   cut);
		return NULL;
	}
	r->file = r->salvage_path;
	return handle;
}

/*
 * libtracecmd refused @r->path: say why in @err, naming where a cut file
 * ends and, when it ends before the parts a salvage needs, what stops it
 * (@ret and @why: what the salvage said).
 */
static void refused(struct reader *r, bool headers, int ret,
		    struct sm_err *why, struct sm_err *err)
{
	const char *msg = sm_err_after_path(why, r->path);
	struct sm_err cut;
	bool known = truncated(r->path, &cut);

	if (known)
		sm_err_set(err, "%s; not decodable: %s", cut.msg, msg);
	else if (ret == -EBADMSG && strstr(msg, "beyond end of file"))
		sm_err_set(err, "truncated: %s", msg);
	else if (headers)
		sm_err_set(err, "its event data is truncated or corrupt (libtracecmd cannot index it)");
	else
		sm_err_set(err, "not a trace-cmd trace.dat file, or its headers are corrupt");
}

/* Is @path a version 7 file (or later)?  Its header was checked. */
static bool version7(const char *path)
{
	char buf[STACKMAP_TRACEDAT_MAGIC_LEN + 8] = "";
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return true;
	if (pread(fd, buf, sizeof(buf) - 1, 0) < 0)
		buf[0] = 0;
	close(fd);
	return strtoul(buf + STACKMAP_TRACEDAT_MAGIC_LEN, NULL, 10) >= 7;
}

/*
 * Does libtracecmd read @path's printk formats and kallsyms inside its
 * buffers, and libtraceevent parse the printk formats inside its own?  A
 * damaged byte of a compressed printk section uncompresses into other text
 * (trace-cmd's zstd frames have no checksum), whose last line without ':'
 * made libtraceevent 1.7's tep_parse_printk_formats() read past its copy
 * (stackmap_tracedat_check_printk()).  False with @err set when not.
 */
static bool printk_readable(const char *path, struct sm_err *err)
{
	struct sm_err bad;
	int ret = stackmap_tracedat_check_printk(path, &bad);

	if (!ret)
		return true;
	sm_err_set(err, "%s%s", ret == -EBADMSG || ret == -E2BIG ? "corrupt: " : "",
		   sm_err_after_path(&bad, path));
	return false;
}

static struct tracecmd_input *open_trace(struct reader *r, unsigned int flags,
					 struct sm_err *err)
{
	const char *tmp = getenv("TMPDIR");
	struct tracecmd_input *handle;
	struct sm_err why, cut, bad;
	bool headers;
	int ret;

	/*
	 * libtracecmd would read past a string option without its NUL, or a
	 * fixed field the option does not hold, in the file or in a salvaged
	 * copy of it (which keeps the options the file holds whole).
	 */
	if (stackmap_tracedat_check_strings(r->path, &bad)) {
		sm_err_set(err, "corrupt: %s", sm_err_after_path(&bad, r->path));
		return NULL;
	}
	/*
	 * A file whose CPU data, or the options placing it, run past its end
	 * is read from the copy stackmap_tracedat_salvage() makes (it makes
	 * none of a whole file): libtracecmd never opens the cut file itself,
	 * 3.1.6 cannot close a handle whose data it refused.
	 */
	ret = stackmap_tracedat_salvage(r->path, tmp && *tmp ? tmp : "/tmp",
					&r->salvage, &why);
	if (!ret) {
		/* The copy holds the file's printk formats as they are. */
		if (!printk_readable(r->path, err))
			return NULL;
		if (!truncated(r->path, &cut))
			snprintf(cut.msg, sizeof(cut.msg), "truncated");
		return open_copy(r, flags, cut.msg, err);
	}
	/*
	 * Nor more CPUs than Linux has: libtracecmd 1.3 walks every CPU up
	 * to a damaged count or id (tracecmd_init_data() took 45 s on a CPU
	 * id of 16711680).  Nor a BUFFER option whose fields do not fill it:
	 * libtracecmd places no data with it (a damaged name took the clock
	 * and the CPU count, and every record, in silence).  The extents
	 * read here serve reader_unread().
	 */
	r->extents_ret = stackmap_tracedat_extents(r->path, &r->extents, &bad);
	/*
	 * A version 6 file whose header parts do not lead to its CPU table
	 * has a damaged size among them: libtraceevent 1.7 read past the
	 * printk formats when theirs was made smaller.
	 */
	if (r->extents_ret == -E2BIG || r->extents_ret == -EPROTO ||
	    (r->extents_ret == -EBADMSG && !version7(r->path))) {
		sm_err_set(err, "corrupt: %s", sm_err_after_path(&bad, r->path));
		return NULL;
	}
	if (!printk_readable(r->path, err))
		return NULL;
	handle = open_file(r->path, flags, &headers);
	if (!handle)
		refused(r, headers, ret, &why, err);
	return handle;
}

/*
 * The stack events print as their own fields: fgdecode prints their stacks
 * itself, so plugin_stackmap's handlers (when installed) and libtracecmd's
 * kernel_stack handler ("<stack trace >" and "=> " lines) must not.
 */
static void drop_stack_handlers(struct reader *r)
{
	struct tep_event *event;
	int kind;

	for (kind = 0; kind < READER_NR_KINDS; kind++) {
		if (r->ids[kind] < 0)
			continue;
		event = tep_find_event(r->tep, r->ids[kind]);
		if (event) {
			event->handler = NULL;
			event->context = NULL;
		}
	}
}

int reader_open(struct reader *r, const char *path, unsigned int flags,
		struct sm_err *err)
{
	int ret;

	memset(r, 0, sizeof(*r));
	r->path = path;
	r->file = path;
	r->salvage.fd = -1;
	r->extents_ret = 1;
	ret = reader_check(path, err);
	if (ret)
		return ret;
	/* Failures are reported here in one line, not by the library. */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	r->handle = open_trace(r, flags, err);
	if (!r->handle) {
		ret = -EBADMSG;
		goto fail_salvage;
	}
	r->tep = tracecmd_get_tep(r->handle);
	/*
	 * libtracecmd 3.1.6 reads the file header's page size but does not
	 * give it to the tep (tep_get_page_size() is 0 there): take it from
	 * the headers read for the extents, else the short-page check below
	 * sees every record in one page and says nothing.
	 */
	r->page_size = tep_get_page_size(r->tep);
	if (!r->page_size && !r->extents_ret)
		r->page_size = r->extents.page_size;
	r->file_version = tracecmd_get_in_file_version(r->handle);
	r->nr_cpus = buffer_cpus(r->handle);
	ret = open_buffers(r, err);
	if (!ret)
		ret = find_events(r, err);
	if (ret)
		goto fail;
	drop_stack_handlers(r);
	find_common_fields(r);
	reader_rewind(r);
	return 0;
fail:
	close_buffers(r);
	tracecmd_close(r->handle);
fail_salvage:
	if (r->salvage.fd >= 0)
		close(r->salvage.fd);
	r->salvage.fd = -1;
	stackmap_extents_free(&r->extents);
	return ret;
}

bool reader_salvaged(const struct reader *r, struct sm_err *what)
{
	const struct stackmap_salvage *s = &r->salvage;
	char cut[160] = "", total[16] = "";

	if (s->fd < 0)
		return false;
	if (s->lost)
		snprintf(total, sizeof(total), "%u ", s->kept + s->lost);
	if (s->cut_cpu >= 0)
		snprintf(cut, sizeof(cut), "; the cut ends inside CPU %d's data: %u of its %s%s kept",
			 s->cut_cpu, s->kept, total, s->unit);
	if (s->cut_cpu >= 0 && r->file_version >= 7)
		snprintf(cut + strlen(cut), sizeof(cut) - strlen(cut),
			 ", the last %llu bytes lost",
			 (unsigned long long)s->bytes_lost);
	if (r->file_version < 7)
		sm_err_set(what, "truncated at byte %llu: the CPU data its table places runs past the end: decoding what the file holds (%llu bytes of CPU data lost, %u CPU%s with none left, %u instance%s lost)%s",
			   (unsigned long long)s->file_size,
			   (unsigned long long)s->bytes_lost, s->cpus_lost,
			   s->cpus_lost == 1 ? "" : "s", s->buffers_lost,
			   s->buffers_lost == 1 ? "" : "s", cut);
	else if (!s->data_section)
		sm_err_set(what, "truncated at byte %llu: the options from offset %llu on are lost (they placed no CPU data; a map snapshot or saved_tgids stored there is lost too): decoding the rest",
			   (unsigned long long)s->file_size,
			   (unsigned long long)s->lost_at);
	else
		sm_err_set(what, "truncated at byte %llu: the options written after its CPU data (offset %llu on, with any map snapshot or saved_tgids) are lost; decoding the CPU data of the section at offset %llu as placed again (%u CPU%s, %s clock)%s",
			   (unsigned long long)s->file_size,
			   (unsigned long long)s->lost_at,
			   (unsigned long long)s->data_section, s->cpus,
			   s->cpus == 1 ? "" : "s", s->clock, cut);
	return true;
}

/*
 * @pages pages of @q, the first at @offset, ended before their data did:
 * the page of the last record read, or pages between two records read
 * that gave none.
 */
static void note_short_pages(struct reader_queue *q, size_t pages,
			     unsigned long long offset)
{
	if (!q->short_pages) {
		q->short_ts = q->last_ts;
		q->short_offset = offset;
	}
	q->short_pages += pages;
	q->page_open = false;
}

/* A record of no event, back in time or too short: the data is damaged. */
static void note_bad_record(struct reader_queue *q)
{
	if (!q->bad_records++)
		q->bad_ts = q->last_ts;
}

/*
 * Does @rec have the size of its event?  Shorter than its fields (up to an
 * array's start): -1.  Only damaged data makes one (the ring buffer writes
 * an event's whole entry), and libtraceevent's handlers read past it
 * (libtracecmd's funcgraph_exit handler indented a damaged depth of 2^31
 * spaces).  Longer than fields of fixed sizes and their padding: 1 (a
 * damaged length that swallowed the records after it).  Else 0.
 */
static int record_fits(struct reader *r, struct tep_record *rec)
{
	struct tep_event *event = tep_find_event(r->tep, reader_type(r, rec));
	struct tep_format_field *f;
	int fixed = 0, end = 0;
	bool variable = false;

	if (!event)
		return 0;
	for (f = event->format.common_fields; f; f = f->next)
		if (f->offset + f->size > fixed)
			fixed = f->offset + f->size;
	for (f = event->format.fields; f; f = f->next) {
		/* An array may be cut to what was recorded (kernel_stack). */
		variable |= !!(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC));
		if (f->offset + (f->flags & TEP_FIELD_IS_ARRAY ? 0 : f->size) > fixed)
			fixed = f->offset + (f->flags & TEP_FIELD_IS_ARRAY ? 0 : f->size);
		if (f->offset + f->size > end)
			end = f->offset + f->size;
	}
	if (rec->size < fixed)
		return -1;
	return !variable && rec->size > (end > fixed ? end : fixed) + 8;
}

/* Record header types that are no record (libtraceevent's kbuffer.h). */
#define KB_TYPE_PADDING		29
#define KB_TYPE_TIME_EXTEND	30
#define KB_TYPE_TIME_STAMP	31

/*
 * Does @rec end its page: after it, only padding and time stamps up to the
 * page's commit, as libtraceevent's kbuffer walks a page (kbuffer-parse.c
 * kbuffer_load_subbuffer(), __next_event(), translate_data(): a page is a
 * u64 time stamp, a long commit (the data's length, flags in its top
 * bits), then record headers: a u32 of type_len (5 bits) and time delta,
 * type_len 0 a u32 length before the data, padding a u32 length, time
 * extends and stamps a u32 more).  The page is where @rec's data lies:
 * record->offset is the page's offset plus the header's place in it, and
 * record->data is record->record_size - record->size bytes past that.
 */
static bool ends_page(struct reader *r, const struct tep_record *rec)
{
	unsigned long long page = r->page_size, in_page, commit, pos, word;
	int long_size = tep_get_header_page_size(r->tep);
	const char *base;
	unsigned int type;

	if (!page || (page & (page - 1)) || (long_size != 4 && long_size != 8) ||
	    rec->record_size < rec->size)
		return true;	/* not known: nothing said */
	in_page = rec->offset & (page - 1);
	base = (const char *)rec->data - (rec->record_size - rec->size) -
	       in_page;
	commit = tep_read_number(r->tep, base + 8, long_size) &
		 ((1ULL << 27) - 1);
	pos = in_page + rec->record_size;
	commit += 8 + long_size;
	while (pos < commit && pos + 8 <= page) {
		word = tep_read_number(r->tep, base + pos, 4);
		type = tep_is_file_bigendian(r->tep) ? word >> 27 : word & 31;
		if (type == KB_TYPE_PADDING)
			pos += 4 + tep_read_number(r->tep, base + pos + 4, 4);
		else if (type == KB_TYPE_TIME_EXTEND || type == KB_TYPE_TIME_STAMP)
			pos += 8;
		else
			return false;	/* a record libtraceevent skipped */
	}
	return pos == commit;
}

/* What reader_unread() compares: @rec is the next record libtracecmd gave. */
static void note_read(struct reader *r, struct reader_queue *q,
		      struct tep_record *rec)
{
	unsigned long long mask = ~(unsigned long long)(r->page_size - 1);
	unsigned long long page = rec->offset & mask;
	unsigned long long last = q->last_offset & mask;

	if (q->read && q->page_open && page != last)
		note_short_pages(q, 1, q->last_offset);
	/*
	 * Pages between the last record's and this one's gave no record: a
	 * page's first header damaged into padding past the page.  trace-cmd
	 * writes no page without a record (trace_pipe_raw gives none), and
	 * a CPU's pages lie one after the other (compressed: in the
	 * uncompressed data libtracecmd's offsets count).
	 */
	if (q->read && r->page_size && page > last + r->page_size)
		note_short_pages(q, (page - last) / r->page_size - 1,
				 last + r->page_size);
	if ((q->read && rec->ts < q->last_ts) ||
	    !tep_find_event(r->tep, reader_type(r, rec)) ||
	    record_fits(r, rec))
		note_bad_record(q);
	if (!q->read++)
		q->first_offset = rec->offset;
	q->last_offset = rec->offset;
	q->last_ts = rec->ts;
	q->page_open = !ends_page(r, rec);
}

/* Release the records queued for @stream. */
static void drop_queue(struct reader *r, int stream)
{
	struct reader_queue *q = &r->queues[stream];

	while (q->n)
		tracecmd_free_record(q->rec[--q->n]);
	q->eof = false;
}

void reader_close(struct reader *r)
{
	int s;

	for (s = 0; s < r->nr_streams; s++)
		drop_queue(r, s);
	close_buffers(r);
	tracecmd_close(r->handle);
	if (r->salvage.fd >= 0)
		close(r->salvage.fd);
	stackmap_extents_free(&r->extents);
	memset(r, 0, sizeof(*r));
	r->salvage.fd = -1;
}

void reader_rewind(struct reader *r)
{
	int s;

	for (s = 0; s < r->nr_streams; s++) {
		struct reader_buffer *b = &r->buffers[r->stream_buffer[s]];
		struct reader_queue *q = &r->queues[s];

		drop_queue(r, s);
		q->read = 0;
		q->short_pages = 0;
		q->bad_records = 0;
		q->page_open = false;
		q->rec[0] = FAULT_GUARDED(r->stream_cpu[s],
			tracecmd_read_cpu_first(b->handle, r->stream_cpu[s]));
		q->n = q->rec[0] ? 1 : 0;
		q->eof = !q->n;
		if (q->n)
			note_read(r, q, q->rec[0]);
	}
}

/* Read records of @stream until @i is queued or the stream ends. */
static void fill_queue(struct reader *r, int stream, int i)
{
	struct reader_buffer *b = &r->buffers[r->stream_buffer[stream]];
	struct reader_queue *q = &r->queues[stream];
	struct tep_record *rec;

	while (q->n <= i && !q->eof) {
		rec = FAULT_GUARDED(r->stream_cpu[stream],
			tracecmd_read_data(b->handle, r->stream_cpu[stream]));
		if (!rec) {
			q->eof = true;
			if (q->page_open)
				note_short_pages(q, 1, q->last_offset);
		} else if (record_fits(r, rec) < 0) {
			/* Counted, not handed out: nothing can print it. */
			note_bad_record(q);
			tracecmd_free_record(rec);
		} else {
			q->rec[q->n++] = rec;
			note_read(r, q, rec);
		}
	}
}

struct tep_record *reader_peek_at(struct reader *r, int stream, int i)
{
	if (stream < 0 || stream >= r->nr_streams || i < 0 ||
	    i >= READER_LOOKAHEAD)
		return NULL;
	fill_queue(r, stream, i);
	return i < r->queues[stream].n ? r->queues[stream].rec[i] : NULL;
}

struct tep_record *reader_peek(struct reader *r, int stream)
{
	return reader_peek_at(r, stream, 0);
}

struct tep_record *reader_take_at(struct reader *r, int stream, int i)
{
	struct tep_record *record = reader_peek_at(r, stream, i);
	struct reader_queue *q;

	if (!record)
		return NULL;
	q = &r->queues[stream];
	memmove(&q->rec[i], &q->rec[i + 1], (q->n - i - 1) * sizeof(q->rec[0]));
	q->n--;
	/* Keep the next record read: reader_next() compares heads. */
	fill_queue(r, stream, 0);
	return record;
}

struct tep_record *reader_take(struct reader *r, int stream)
{
	return reader_take_at(r, stream, 0);
}

struct tep_record *reader_next(struct reader *r, int *stream)
{
	struct tep_record *best = NULL;
	int s, best_s = -1;

	for (s = 0; s < r->nr_streams; s++) {
		struct tep_record *head = r->queues[s].n ? r->queues[s].rec[0] :
				NULL;

		if (head && (!best || head->ts < best->ts)) {
			best = head;
			best_s = s;
		}
	}
	*stream = best_s;
	return best ? reader_take(r, best_s) : NULL;
}

const char *reader_buffer_name(const struct reader *r, int stream)
{
	if (stream < 0 || stream >= r->nr_streams)
		return NULL;
	return r->buffers[r->stream_buffer[stream]].name;
}

int reader_buffer_width(const struct reader *r)
{
	int i, width = 0;

	for (i = 0; i < r->nr_buffers; i++)
		if (r->buffers[i].name && (int)strlen(r->buffers[i].name) > width)
			width = strlen(r->buffers[i].name);
	return width;
}

int reader_read_kstack(const struct reader *r, const struct tep_record *record,
		       sm_u64 *frames, sm_u32 *depth, struct sm_err *err)
{
	const struct reader_kstack *k = &r->kstack;
	int long_size = tep_get_long_size(r->tep);
	const char *data = record->data;
	unsigned long long n, avail, addr, end;
	unsigned long long i;

	*depth = 0;
	if (k->size->offset + k->size->size > record->size ||
	    k->caller->offset > record->size) {
		sm_err_set(err, "kernel_stack: the %d-byte record is too short for its fields",
			 record->size);
		return -EFAULT;
	}
	if (long_size != 4 && long_size != 8)
		long_size = 8;
	end = long_size == 8 ? ~0ULL : 0xffffffffULL;
	n = tep_read_number(r->tep, data + k->size->offset, k->size->size);
	avail = (record->size - k->caller->offset) / long_size;
	if (n > avail)
		n = avail;
	for (i = 0; i < n && *depth < READER_KSTACK_MAX; i++) {
		addr = tep_read_number(r->tep,
				       data + k->caller->offset + i * long_size,
				       long_size);
		if (addr == end || addr == 0)
			break;
		frames[(*depth)++] = addr;
	}
	return 0;
}

void reader_put(struct tep_record *record)
{
	tracecmd_free_record(record);
}

int reader_type(const struct reader *r, struct tep_record *record)
{
	unsigned short id;

	if (r->type_offset < 0 || record->size < r->type_offset + 2)
		return tep_data_type(r->tep, record);
	memcpy(&id, (const char *)record->data + r->type_offset, sizeof(id));
	return id;
}

unsigned int reader_context(const struct reader *r, struct tep_record *record)
{
	if (r->flags_offset < 0 || record->size <= r->flags_offset)
		return tepstack_context(r->tep, record);
	return ((const unsigned char *)record->data)[r->flags_offset] &
	       STACKMAP_CONTEXT_FLAGS;
}

enum reader_kind reader_kind(const struct reader *r,
			     struct tep_record *record)
{
	int id = reader_type(r, record);
	int kind;

	for (kind = 0; kind < READER_NR_KINDS; kind++)
		if (r->ids[kind] >= 0 && r->ids[kind] == id)
			return kind;
	return READER_NONE;
}

const struct tepstack_fields *reader_fields(const struct reader *r,
					    enum reader_kind kind)
{
	if (kind < 0 || kind >= (int)TEPSTACK_NR_KINDS || r->ids[kind] < 0)
		return NULL;
	return &r->fields[kind];
}

/*
 * The last record libtracecmd finds from the end of @stream's data: is it
 * the last one the pass read?  (See reader_unread().)
 */
static bool read_to_last(struct reader *r, int stream)
{
	struct reader_buffer *b = &r->buffers[r->stream_buffer[stream]];
	struct reader_queue *q = &r->queues[stream];
	struct tep_record *last;
	bool same;

	last = FAULT_GUARDED(r->stream_cpu[stream],
		tracecmd_read_cpu_last(b->handle, r->stream_cpu[stream]));
	same = last ? q->read && last->offset == q->last_offset : !q->read;
	tracecmd_free_record(last);
	return same;
}

/*
 * ", K of its N compressed chunks (from file offset O on)": the chunks of
 * @c that hold data past @reached, when its data is compressed.
 */
static void unread_chunks(const struct stackmap_cpu_extent *c,
			  sm_u64 reached, char *buf, size_t len)
{
	unsigned int i;

	for (i = 0; i < c->chunks && c->chunk_end[i] <= reached; i++)
		;
	if (i < c->chunks)
		snprintf(buf, len, ", %u of its %u compressed chunks (from file offset %llu on)",
			 c->chunks - i, c->chunks,
			 (unsigned long long)c->chunk_at[i]);
}

/*
 * The bytes of @c's data up to the end of the page of @q's last record
 * read (0 when not known): page offsets counted from the page of its first
 * record, which is where the CPU's data starts.
 */
static sm_u64 read_reached(const struct reader *r,
			   const struct reader_queue *q,
			   const struct stackmap_cpu_extent *c)
{
	unsigned long long page = r->extents.page_size, reached;

	if (!q->read || !page || (page & (page - 1)))
		return 0;
	reached = (q->last_offset & ~(page - 1)) + page -
		  (q->first_offset & ~(page - 1));
	return reached > c->data_size ? c->data_size : reached;
}

/*
 * libtracecmd read @q to the last record it finds from the end, yet pages
 * the headers give follow that record's page: they hold no record it could
 * read (a page header whose commit was damaged past the page makes
 * libtracecmd skip the page, from either end).  The ring buffer writes no
 * page without a record into a trace.dat (trace-cmd reads each CPU's
 * trace_pipe_raw, which gives none), so those pages are lost data.
 */
static bool unread_tail(struct reader *r, const struct reader_queue *q,
			const struct stackmap_cpu_extent *c,
			const char *where, int cpu, struct sm_err *what)
{
	sm_u64 reached = c ? read_reached(r, q, c) : 0;
	char chunks[128] = "";

	if (!reached || reached >= c->data_size)
		return false;
	unread_chunks(c, reached, chunks, sizeof(chunks));
	sm_err_set(what, "%sCPU %d: data lost after %llu.%06llu (the last record read): the %llu bytes its headers give after that record's page hold no record libtracecmd could read (a damaged page header)%s",
		   where, cpu, q->last_ts / 1000000000,
		   q->last_ts % 1000000000 / 1000,
		   (unsigned long long)(c->data_size - reached), chunks);
	return true;
}

bool reader_unread(struct reader *r, int stream, struct sm_err *what)
{
	const struct stackmap_cpu_extent *c = NULL;
	const char *name = reader_buffer_name(r, stream);
	unsigned long long page, reached = 0;
	char where[96] = "", chunks[128] = "", when[64] = "";
	struct reader_queue *q;
	struct sm_err ignored;
	int cpu;

	if (stream < 0 || stream >= r->nr_streams || !r->queues[stream].eof)
		return false;
	q = &r->queues[stream];
	if (r->extents_ret == 1)
		r->extents_ret = stackmap_tracedat_extents(r->file, &r->extents,
							   &ignored);
	if (!r->extents_ret)
		c = stackmap_extent_find(&r->extents, name,
					 r->stream_cpu[stream]);
	/*
	 * No data: the headers give none, or (not read) no record came.
	 * tracecmd_read_cpu_last() checks no CPU index: it is asked only of
	 * a CPU the headers or its records show libtracecmd has.
	 */
	if (c ? !c->data_size : !q->read)
		return false;
	/* The CPU's id: libtracecmd's index when the headers are not read. */
	cpu = c ? (int)c->cpu : r->stream_cpu[stream];
	if (name)
		snprintf(where, sizeof(where), "buffer \"%s\" ", name);
	/*
	 * No record read, and none found from the end either: no data, or
	 * only pages without a record (libtracecmd refuses a file whose
	 * first page of a CPU it cannot read).
	 */
	if (read_to_last(r, stream)) {
		if (!q->short_pages && q->bad_records) {
			sm_err_set(what, "%sCPU %d: data damaged after %llu.%06llu: %zu records of no known event, not of their event's size or back in time: the events there are lost (a damaged record, or a compressed chunk that decompressed into other bytes)",
				   where, cpu, q->bad_ts / 1000000000,
				   q->bad_ts % 1000000000 / 1000,
				   q->bad_records);
			return true;
		}
		if (!q->short_pages)
			return unread_tail(r, q, c, where, cpu, what);
		page = r->page_size;
		sm_err_set(what, "%sCPU %d: data lost inside %zu page%s, the first after %llu.%06llu, %llu bytes into its data: their records end before the page's data does (a damaged record, or a compressed chunk that decompressed into other bytes)",
			   where, cpu, q->short_pages,
			   q->short_pages == 1 ? "" : "s",
			   q->short_ts / 1000000000,
			   q->short_ts % 1000000000 / 1000,
			   (q->short_offset & ~(page - 1)) -
			   (q->first_offset & ~(page - 1)));
		return true;
	}
	if (q->read)
		snprintf(when, sizeof(when), "after %llu.%06llu (the last record read)",
			 q->last_ts / 1000000000, q->last_ts % 1000000000 / 1000);
	else
		snprintf(when, sizeof(when), "from its start (no record read)");
	if (!c) {
		sm_err_set(what, "%sCPU %d: data lost %s: libtracecmd stopped at a page or chunk it cannot read, before the CPU's last record",
			   where, cpu, when);
		return true;
	}
	reached = read_reached(r, q, c);
	unread_chunks(c, reached, chunks, sizeof(chunks));
	sm_err_set(what, "%sCPU %d: data lost %s: libtracecmd stopped at a page or chunk it cannot read, %llu bytes into the %llu its headers give: %llu bytes%s not read",
		   where, cpu, when, reached,
		   (unsigned long long)c->data_size,
		   (unsigned long long)(c->data_size - reached), chunks);
	return true;
}

/* Add one stats text's "dropped events: N" and "overrun: N" lines to @out. */
static void add_cpustats(const char *stats, struct reader_losses *out)
{
	const char *line = stats;
	unsigned long long n;

	while (line && *line) {
		if (sscanf(line, "dropped events: %llu", &n) == 1)
			out->dropped += n;
		else if (sscanf(line, "overrun: %llu", &n) == 1)
			out->overrun += n;
		else if (!strncmp(line, "CPU: ", 5))
			out->cpus++;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
}

void reader_losses(struct reader *r, struct reader_losses *out)
{
	const char *stats;
	int i, j;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < r->nr_buffers; i++) {
		stats = tracecmd_get_cpustats(r->buffers[i].handle);
		for (j = 0; j < i; j++)
			if (tracecmd_get_cpustats(r->buffers[j].handle) == stats)
				break;
		if (j == i)
			add_cpustats(stats, out);
	}
}

bool reader_has_stackmap(const struct reader *r)
{
	return r->ids[READER_COOKIE] >= 0 || r->ids[READER_DEFINE] >= 0 ||
	       r->ids[READER_FALLBACK] >= 0;
}
