// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot: the map snapshot stored in trace.dat (format in snapshot.h), its
 * parser from the module's stack_map listing, and a small read-only walker of
 * the trace.dat v7 option chain to find it.
 *
 * The walker mirrors trace-cmd 3.1.6 lib/trace-cmd/trace-input.c:
 * tracecmd_alloc_fd() (file header), read_section_header(),
 * handle_options() and handle_option_done() (option chain).  libtracecmd has
 * no public call that returns an unknown option, so this is the one place
 * that knows that layout.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stackmap/cookie.h"
#include "snapshot.h"

sm_u32 stackmap_crc32(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	sm_u32 crc = 0xffffffffu;
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
	}
	return ~crc;
}

void stackmap_snapshot_free(struct stackmap_snapshot *snap)
{
	free(snap->entries);
	memset(snap, 0, sizeof(*snap));
}

/* Append one zeroed entry; returns it or NULL when out of memory. */
static struct stackmap_snap_entry *add_entry(struct stackmap_snapshot *snap,
					     size_t *cap)
{
	struct stackmap_snap_entry *e;

	if (snap->nr == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;

		e = realloc(snap->entries, ncap * sizeof(*e));
		if (!e)
			return NULL;
		snap->entries = e;
		*cap = ncap;
	}
	e = &snap->entries[snap->nr++];
	memset(e, 0, sizeof(*e));
	return e;
}

/* ---- stack_map listing ---- */

struct listing {
	FILE *f;
	const char *name;
	unsigned long line;
	char buf[512];
};

/* Next line without its newline; 1 at EOF, -EIO on error, -EINVAL if long. */
static int next_line(struct listing *l, struct sm_err *err)
{
	size_t n;

	if (!fgets(l->buf, sizeof(l->buf), l->f)) {
		if (ferror(l->f)) {
			sm_err_set(err, "%s:%lu: read error", l->name, l->line + 1);
			return -EIO;
		}
		return 1;
	}
	l->line++;
	n = strlen(l->buf);
	if (n && l->buf[n - 1] == '\n')
		l->buf[--n] = '\0';
	else if (!feof(l->f)) {
		sm_err_set(err, "%s:%lu: line too long", l->name, l->line);
		return -EINVAL;
	}
	return 0;
}

static int parse_header(struct listing *l, sm_u32 *generation,
			struct sm_err *err)
{
	unsigned long long g;
	int ret, end = 0;

	ret = next_line(l, err);
	if (ret)
		return ret > 0 ? (sm_err_set(err, "%s: empty listing", l->name),
				  -EINVAL) : ret;
	if (sscanf(l->buf, "# generation %llu entries %*u/%*u frames %*u/%*u bytes %*u%n",
		   &g, &end) != 1 || !end || l->buf[end] || !g || g > 0xffffffffULL) {
		sm_err_set(err, "%s:%lu: header: expected \"# generation G entries U/C frames U/C bytes B\"",
			l->name, l->line);
		return -EINVAL;
	}
	*generation = (sm_u32)g;
	return 0;
}

#define ENTRY_SHAPE \
	"\"slot S generation G hits H depth D owner O NAME flags 0xF\""

/* An owner name: "?" or letters, digits and "_-.:" (trace event names). */
static bool name_ok(const char *p, int len)
{
	int i;

	if (len == 1 && *p == '?')
		return true;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)p[i]) && !strchr("_-.:", p[i]))
			return false;
	return true;
}

/*
 * Parse "slot S generation G hits H depth D owner O NAME flags 0xF" into
 * @e.  NAME is one word ("system:event", or "?" for an owner the module
 * could not name).
 */
static int parse_entry_line(struct listing *l, sm_u32 generation,
			    struct stackmap_snap_entry *e,
			    struct sm_err *err)
{
	unsigned long long s, g, h, d, o, fl;
	int name_at = 0, name_end = 0, end = 0;

	if (sscanf(l->buf, "slot %llu generation %llu hits %llu depth %llu owner %llu %n%*s%n flags 0x%llx%n",
		   &s, &g, &h, &d, &o, &name_at, &name_end, &fl, &end) != 6 ||
	    l->buf[end] || s > 0xffffffffULL || h > 0xffffffffULL ||
	    name_end <= name_at || !isspace((unsigned char)l->buf[name_at - 1])) {
		sm_err_set(err, "%s:%lu: entry: expected " ENTRY_SHAPE, l->name,
			l->line);
		return -EINVAL;
	}
	if (g != generation) {
		sm_err_set(err, "%s:%lu: generation: %llu, header says %u",
			l->name, l->line, g, generation);
		return -EINVAL;
	}
	if (d > STACKMAP_MAX_DEPTH) {
		sm_err_set(err, "%s:%lu: depth: %llu exceeds %d", l->name, l->line,
			d, STACKMAP_MAX_DEPTH);
		return -E2BIG;
	}
	if (o > 0xffff) {
		sm_err_set(err, "%s:%lu: owner: %llu is not an event id (0..65535)",
			l->name, l->line, o);
		return -EINVAL;
	}
	if (name_end - name_at >= STACKMAP_SNAPSHOT_NAME_LEN) {
		sm_err_set(err, "%s:%lu: owner name: longer than %d bytes",
			l->name, l->line, STACKMAP_SNAPSHOT_NAME_LEN - 1);
		return -EINVAL;
	}
	if (!name_ok(l->buf + name_at, name_end - name_at)) {
		sm_err_set(err, "%s:%lu: owner name: not \"system:event\" or \"?\"",
			l->name, l->line);
		return -EINVAL;
	}
	if (fl & ~(unsigned long long)STACKMAP_FLAGS_KNOWN) {
		sm_err_set(err, "%s:%lu: flags: 0x%llx has unknown bits (known: 0x%x)",
			l->name, l->line, fl, STACKMAP_FLAGS_KNOWN);
		return -EINVAL;
	}
	e->slot = (sm_u32)s;
	e->hits = (sm_u32)h;
	e->depth = (sm_u32)d;
	e->owner = (sm_u32)o;
	e->flags = (sm_u32)fl;
	memcpy(e->owner_name, l->buf + name_at, name_end - name_at);
	e->owner_name[name_end - name_at] = '\0';
	return 0;
}

/* Parse the depth lines " 0xADDR SYMBOL..." that follow an entry line. */
static int parse_frames(struct listing *l, struct stackmap_snap_entry *e,
			struct sm_err *err)
{
	unsigned long long a;
	sm_u32 i;
	int ret, end;

	for (i = 0; i < e->depth; i++) {
		ret = next_line(l, err);
		if (ret > 0) {
			sm_err_set(err, "%s:%lu: frame %u of slot %u: listing truncated",
				l->name, l->line, i, e->slot);
			return -EINVAL;
		}
		if (ret)
			return ret;
		end = 0;
		if (sscanf(l->buf, " 0x%llx%n", &a, &end) != 1 || l->buf[0] != ' ' ||
		    (l->buf[end] && l->buf[end] != ' ')) {
			sm_err_set(err, "%s:%lu: frame %u of slot %u: expected \" 0xADDRESS ...\"",
				l->name, l->line, i, e->slot);
			return -EINVAL;
		}
		e->ips[i] = a;
	}
	return 0;
}

int stackmap_snapshot_parse_listing(FILE *f, const char *name,
				    sm_u32 long_size,
				    struct stackmap_snapshot *out,
				    struct sm_err *err)
{
	struct listing l = { .f = f, .name = name };
	struct stackmap_snap_entry *e;
	size_t cap = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	out->long_size = long_size;
	ret = parse_header(&l, &out->generation, err);
	while (!ret) {
		ret = next_line(&l, err);
		if (ret)
			break;
		e = add_entry(out, &cap);
		if (!e) {
			sm_err_set(err, "%s:%lu: out of memory", name, l.line);
			ret = -ENOMEM;
			break;
		}
		ret = parse_entry_line(&l, out->generation, e, err);
		if (!ret)
			ret = parse_frames(&l, e, err);
	}
	if (ret > 0)
		return 0;
	stackmap_snapshot_free(out);
	return ret;
}

/* ---- payload ---- */

static void put32(unsigned char *p, sm_u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static void put64(unsigned char *p, sm_u64 v)
{
	put32(p, (sm_u32)v);
	put32(p + 4, (sm_u32)(v >> 32));
}

static void put16(unsigned char *p, sm_u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static sm_u32 get16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

static sm_u32 get32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (sm_u32)p[3] << 24;
}

static sm_u64 get64(const unsigned char *p)
{
	return get32(p) | (sm_u64)get32(p + 4) << 32;
}

static int check_snapshot(const struct stackmap_snapshot *snap, size_t *len,
			  struct sm_err *err)
{
	size_t size = STACKMAP_SNAPSHOT_HDR_SIZE;
	sm_u32 i;

	if (!snap->generation || (snap->long_size != 4 && snap->long_size != 8)) {
		sm_err_set(err, "snapshot: generation %u / long size %u invalid",
			snap->generation, snap->long_size);
		return -EINVAL;
	}
	for (i = 0; i < snap->nr; i++) {
		if (snap->entries[i].depth > STACKMAP_MAX_DEPTH) {
			sm_err_set(err, "snapshot entry %u: depth %u exceeds %d", i,
				snap->entries[i].depth, STACKMAP_MAX_DEPTH);
			return -EINVAL;
		}
		if (snap->entries[i].owner > 0xffff ||
		    (snap->entries[i].flags & ~STACKMAP_FLAGS_KNOWN)) {
			sm_err_set(err, "snapshot entry %u: owner %u / flags 0x%x invalid",
				i, snap->entries[i].owner,
				snap->entries[i].flags);
			return -EINVAL;
		}
		size += STACKMAP_SNAPSHOT_ENTRY_SIZE + 8 * snap->entries[i].depth;
		if (size > STACKMAP_SNAPSHOT_MAX_SIZE) {
			sm_err_set(err, "snapshot: larger than %u bytes",
				STACKMAP_SNAPSHOT_MAX_SIZE);
			return -E2BIG;
		}
	}
	*len = size;
	return 0;
}

int stackmap_snapshot_encode(const struct stackmap_snapshot *snap, void **buf,
			     size_t *len, struct sm_err *err)
{
	const struct stackmap_snap_entry *e;
	unsigned char *p, *q;
	sm_u32 i, k;
	int ret;

	ret = check_snapshot(snap, len, err);
	if (ret)
		return ret;
	p = calloc(1, *len);
	if (!p) {
		sm_err_set(err, "snapshot: out of memory for %zu bytes", *len);
		return -ENOMEM;
	}
	memcpy(p, STACKMAP_SNAPSHOT_MAGIC, STACKMAP_SNAPSHOT_MAGIC_LEN);
	put32(p + 8, STACKMAP_SNAPSHOT_VERSION);
	put32(p + 16, snap->generation);
	put32(p + 20, snap->nr);
	put32(p + 24, snap->long_size);
	q = p + STACKMAP_SNAPSHOT_HDR_SIZE;
	for (i = 0; i < snap->nr; i++) {
		e = &snap->entries[i];
		put32(q, e->slot);
		put32(q + 4, e->depth);
		put32(q + 8, e->hits);
		put16(q + 12, e->owner);
		put16(q + 14, e->flags);
		q += STACKMAP_SNAPSHOT_ENTRY_SIZE;
		for (k = 0; k < e->depth; k++, q += 8)
			put64(q, e->ips[k]);
	}
	put32(p + 28, stackmap_crc32(p + STACKMAP_SNAPSHOT_HDR_SIZE,
				     *len - STACKMAP_SNAPSHOT_HDR_SIZE));
	*buf = p;
	return 0;
}

static int decode_header(const unsigned char *p, size_t len,
			 struct stackmap_snapshot *out,
			 struct sm_err *err)
{
	sm_u32 v, crc;

	if (len < STACKMAP_SNAPSHOT_HDR_SIZE) {
		sm_err_set(err, "snapshot offset 0: header truncated (%zu of %d bytes)",
			len, STACKMAP_SNAPSHOT_HDR_SIZE);
		return -EBADMSG;
	}
	if (memcmp(p, STACKMAP_SNAPSHOT_MAGIC, STACKMAP_SNAPSHOT_MAGIC_LEN)) {
		sm_err_set(err, "snapshot offset 0: magic: not \"STKMAPS\"");
		return -EBADMSG;
	}
	v = get32(p + 8);
	if (v == 1) {
		sm_err_set(err, "snapshot offset 8: version: 1 (stackmap 0.1) names no stack owners; re-record with stackmap 0.2");
		return -EPROTONOSUPPORT;
	}
	if (v != STACKMAP_SNAPSHOT_VERSION) {
		sm_err_set(err, "snapshot offset 8: version: %u, only %d is known",
			v, STACKMAP_SNAPSHOT_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (get32(p + 12)) {
		sm_err_set(err, "snapshot offset 12: flags: 0x%x, expected 0",
			get32(p + 12));
		return -EBADMSG;
	}
	crc = stackmap_crc32(p + STACKMAP_SNAPSHOT_HDR_SIZE,
			     len - STACKMAP_SNAPSHOT_HDR_SIZE);
	if (crc != get32(p + 28)) {
		sm_err_set(err, "snapshot offset 28: crc32: stored 0x%08x, computed 0x%08x",
			get32(p + 28), crc);
		return -EBADMSG;
	}
	out->generation = get32(p + 16);
	out->nr = get32(p + 20);
	out->long_size = get32(p + 24);
	if (!out->generation ||
	    (out->long_size != 4 && out->long_size != 8)) {
		sm_err_set(err, "snapshot offset 16: generation %u / long size %u invalid",
			out->generation, out->long_size);
		return -EBADMSG;
	}
	/* Each entry takes at least 16 bytes: bounds the allocation. */
	if (out->nr > (len - STACKMAP_SNAPSHOT_HDR_SIZE) / STACKMAP_SNAPSHOT_ENTRY_SIZE) {
		sm_err_set(err, "snapshot offset 20: nr_entries: %u entries cannot fit in %zu bytes",
			out->nr, len);
		return -EBADMSG;
	}
	return 0;
}

static int decode_entry(const unsigned char *p, size_t len, size_t *off,
			struct stackmap_snap_entry *e,
			struct sm_err *err)
{
	size_t o = *off;
	sm_u32 k;

	if (len - o < STACKMAP_SNAPSHOT_ENTRY_SIZE) {
		sm_err_set(err, "snapshot offset %zu: entry truncated", o);
		return -EBADMSG;
	}
	e->slot = get32(p + o);
	e->depth = get32(p + o + 4);
	e->hits = get32(p + o + 8);
	if (e->depth > STACKMAP_MAX_DEPTH) {
		sm_err_set(err, "snapshot offset %zu: depth: %u exceeds %d", o + 4,
			e->depth, STACKMAP_MAX_DEPTH);
		return -E2BIG;
	}
	e->owner = get16(p + o + 12);
	e->flags = get16(p + o + 14);
	if (e->flags & ~STACKMAP_FLAGS_KNOWN) {
		sm_err_set(err, "snapshot offset %zu: flags: 0x%x has unknown bits (known: 0x%x)",
			o + 14, e->flags, STACKMAP_FLAGS_KNOWN);
		return -EBADMSG;
	}
	o += STACKMAP_SNAPSHOT_ENTRY_SIZE;
	if ((len - o) / 8 < e->depth) {
		sm_err_set(err, "snapshot offset %zu: ips of slot %u truncated",
			o, e->slot);
		return -EBADMSG;
	}
	for (k = 0; k < e->depth; k++, o += 8)
		e->ips[k] = get64(p + o);
	*off = o;
	return 0;
}

int stackmap_snapshot_decode(const void *buf, size_t len,
			     struct stackmap_snapshot *out,
			     struct sm_err *err)
{
	const unsigned char *p = buf;
	size_t off = STACKMAP_SNAPSHOT_HDR_SIZE;
	sm_u32 i;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = decode_header(p, len, out, err);
	if (ret)
		goto fail;
	out->entries = calloc(out->nr ? out->nr : 1, sizeof(*out->entries));
	if (!out->entries) {
		sm_err_set(err, "snapshot: out of memory for %u entries", out->nr);
		ret = -ENOMEM;
		goto fail;
	}
	for (i = 0; i < out->nr && !ret; i++)
		ret = decode_entry(p, len, &off, &out->entries[i], err);
	if (!ret && off != len) {
		sm_err_set(err, "snapshot offset %zu: %zu trailing bytes", off,
			len - off);
		ret = -EBADMSG;
	}
	if (!ret)
		return 0;
fail:
	stackmap_snapshot_free(out);
	return ret;
}

int stackmap_snapshot_fill(const struct stackmap_snapshot *snap,
			   struct stacktab *tab)
{
	const struct stackmap_snap_entry *e;
	sm_u32 i;
	int ret;

	for (i = 0; i < snap->nr; i++) {
		e = &snap->entries[i];
		ret = stacktab_define_owned(tab,
					    stackmap_cookie_make(snap->generation,
								 e->slot),
					    e->depth, e->ips, e->owner,
					    e->flags);
		if (ret < 0)
			return ret;
	}
	return 0;
}

enum stacktab_result stackmap_snapshot_resolve(const struct stacktab *defs,
					       const struct stacktab *snap,
					       sm_u64 cookie,
					       struct stacktab_stack *out)
{
	enum stacktab_result res, snap_res;

	res = stacktab_lookup(defs, cookie, out);
	if (res == STACKTAB_FOUND || res == STACKTAB_CONFLICT || !snap)
		return res;
	snap_res = stacktab_lookup(snap, cookie, out);
	if (snap_res == STACKTAB_FOUND ||
	    (snap_res == STACKTAB_STALE && res == STACKTAB_UNKNOWN))
		return snap_res;
	return res;
}

/* ---- trace.dat v7 option chain (trace-cmd 3.1.6 trace-input.c) ---- */

#define TRACEDAT_MAGIC		"\027\010\104tracing"
#define TRACEDAT_MAGIC_LEN	10
#define TRACEDAT_OPTION_DONE	0	/* TRACECMD_OPTION_DONE */
#define TRACEDAT_SEC_COMPRESS	1	/* TRACECMD_SEC_FL_COMPRESS */
#define TRACEDAT_SECTION_HDR	16	/* u16 id, u16 flags, u32 desc, u64 size */
#define TRACEDAT_MAX_SECTIONS	4096

struct tracedat {
	int fd;
	const char *path;
	bool big_endian;
	sm_u64 size;
};

static int td_read(struct tracedat *td, sm_u64 off, void *buf, size_t len,
		   const char *field, struct sm_err *err)
{
	ssize_t n;

	if (off > td->size || len > td->size - off) {
		sm_err_set(err, "%s: offset %" PRIu64 ": %s: beyond end of file (%" PRIu64 " bytes)",
			td->path, off, field, td->size);
		return -EBADMSG;
	}
	n = pread(td->fd, buf, len, (off_t)off);
	if (n != (ssize_t)len) {
		sm_err_set(err, "%s: offset %" PRIu64 ": %s: read failed", td->path,
			off, field);
		return n < 0 ? -errno : -EBADMSG;
	}
	return 0;
}

/* Read an unsigned number of @bytes (2, 4 or 8) in the file's byte order. */
static int td_num(struct tracedat *td, sm_u64 off, int bytes, sm_u64 *val,
		  const char *field, struct sm_err *err)
{
	unsigned char b[8];
	int i, ret;

	ret = td_read(td, off, b, bytes, field, err);
	if (ret)
		return ret;
	*val = 0;
	for (i = 0; i < bytes; i++)
		*val |= (sm_u64)b[td->big_endian ? i : bytes - 1 - i] <<
			(8 * (bytes - 1 - i));
	return 0;
}

/* Skip a NUL-terminated string at *off (at most 64 bytes). */
static int td_string(struct tracedat *td, sm_u64 *off, char *out, size_t max,
		     const char *field, struct sm_err *err)
{
	size_t i;
	int ret;

	for (i = 0; i < max; i++) {
		ret = td_read(td, *off + i, &out[i], 1, field, err);
		if (ret)
			return ret;
		if (!out[i]) {
			*off += i + 1;
			return 0;
		}
	}
	sm_err_set(err, "%s: offset %" PRIu64 ": %s: unterminated string",
		td->path, *off, field);
	return -EBADMSG;
}

/* File header up to the first options offset (tracecmd_alloc_fd()). */
static int td_header(struct tracedat *td, sm_u64 *options,
		     struct sm_err *err)
{
	char buf[64];
	sm_u64 off = TRACEDAT_MAGIC_LEN;
	int ret;

	ret = td_read(td, 0, buf, TRACEDAT_MAGIC_LEN, "magic", err);
	if (ret)
		return ret;
	if (memcmp(buf, TRACEDAT_MAGIC, TRACEDAT_MAGIC_LEN)) {
		sm_err_set(err, "%s: offset 0: magic: not a trace.dat file", td->path);
		return -EBADMSG;
	}
	ret = td_string(td, &off, buf, sizeof(buf), "version", err);
	if (ret)
		return ret;
	if (strtoul(buf, NULL, 10) < 7) {
		sm_err_set(err, "%s: file version %s has no option sections after the data; record with --file-version 7 or run trace-cmd convert --file-version 7",
			td->path, buf);
		return -ENOTSUP;
	}
	ret = td_read(td, off, buf, 1, "endian", err);
	if (ret)
		return ret;
	td->big_endian = buf[0];
	off += 1 + 1 + 4;	/* endian, long size, page size */
	ret = td_string(td, &off, buf, sizeof(buf), "compression name", err);
	if (!ret)
		ret = td_string(td, &off, buf, sizeof(buf),
				"compression version", err);
	if (!ret)
		ret = td_num(td, off, 8, options, "first options offset", err);
	return ret;
}

/* Copy the payload of a snapshot option into @snap (replacing it). */
static int td_snapshot(struct tracedat *td, sm_u64 off, sm_u64 size,
		       struct stackmap_snapshot *snap,
		       struct sm_err *err)
{
	struct sm_err e2;
	void *buf;
	int ret;

	if (size > STACKMAP_SNAPSHOT_MAX_SIZE) {
		sm_err_set(err, "%s: offset %" PRIu64 ": snapshot option: size %" PRIu64 " too large",
			td->path, off, size);
		return -EBADMSG;
	}
	buf = malloc(size ? size : 1);
	if (!buf) {
		sm_err_set(err, "%s: out of memory", td->path);
		return -ENOMEM;
	}
	ret = td_read(td, off, buf, size, "snapshot option", err);
	if (!ret) {
		stackmap_snapshot_free(snap);
		ret = stackmap_snapshot_decode(buf, size, snap, &e2);
		if (ret)
			sm_err_set(err, "%s: option at offset %" PRIu64 ": %s",
				td->path, off, e2.msg);
	}
	free(buf);
	return ret;
}

/*
 * One options section at @off: every option in it; *next is set to the next
 * section's offset from its DONE option (0: none).
 */
static int td_section(struct tracedat *td, sm_u64 off, sm_u64 *next,
		      struct stackmap_snapshot *snap, int *found,
		      struct sm_err *err)
{
	sm_u64 id, flags, size, end, oid, osize;
	int ret;

	ret = td_num(td, off, 2, &id, "section id", err);
	if (!ret)
		ret = td_num(td, off + 2, 2, &flags, "section flags", err);
	if (!ret)
		ret = td_num(td, off + 8, 8, &size, "section size", err);
	if (ret)
		return ret;
	if (id != TRACEDAT_OPTION_DONE) {
		sm_err_set(err, "%s: offset %" PRIu64 ": section id: %" PRIu64 ", expected an options section (0)",
			td->path, off, id);
		return -EBADMSG;
	}
	if (flags & TRACEDAT_SEC_COMPRESS) {
		sm_err_set(err, "%s: offset %" PRIu64 ": compressed options section: not supported",
			td->path, off);
		return -ENOTSUP;
	}
	off += TRACEDAT_SECTION_HDR;
	end = off + size;
	*next = 0;
	while (off < end) {
		ret = td_num(td, off, 2, &oid, "option id", err);
		if (!ret)
			ret = td_num(td, off + 2, 4, &osize, "option size", err);
		if (ret)
			return ret;
		off += 6;
		if (oid == TRACEDAT_OPTION_DONE)
			return osize < 8 ? 0 : td_num(td, off, 8, next,
						      "next options offset", err);
		if (oid == STACKMAP_SNAPSHOT_OPTION) {
			ret = td_snapshot(td, off, osize, snap, err);
			if (ret)
				return ret;
			*found = 1;
		}
		off += osize;
	}
	sm_err_set(err, "%s: offset %" PRIu64 ": options section ends without a DONE option",
		td->path, end);
	return -EBADMSG;
}

int stackmap_snapshot_read_tracedat(const char *path,
				    struct stackmap_snapshot *out,
				    struct sm_err *err)
{
	struct tracedat td = { .path = path };
	struct stat st;
	sm_u64 off;
	int ret, n, found = 0;

	memset(out, 0, sizeof(*out));
	td.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (td.fd < 0 || fstat(td.fd, &st)) {
		ret = -errno;
		sm_err_set(err, "%s: %s", path, strerror(errno));
		if (td.fd >= 0)
			close(td.fd);
		return ret;
	}
	td.size = st.st_size;
	ret = td_header(&td, &off, err);
	for (n = 0; !ret && off; n++) {
		if (n == TRACEDAT_MAX_SECTIONS) {
			sm_err_set(err, "%s: more than %d options sections (loop?)",
				path, TRACEDAT_MAX_SECTIONS);
			ret = -EBADMSG;
			break;
		}
		ret = td_section(&td, off, &off, out, &found, err);
	}
	close(td.fd);
	if (!ret && !found) {
		sm_err_set(err, "%s: no stackmap snapshot option (id 0x%x)", path,
			STACKMAP_SNAPSHOT_OPTION);
		ret = -ENOENT;
	}
	if (ret)
		stackmap_snapshot_free(out);
	return ret;
}
