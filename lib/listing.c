// SPDX-License-Identifier: GPL-2.0
/*
 * listing: parse the module's stack_map listing (man/stackmap.7) into a
 * struct stackmap_snapshot (see listing.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "listing.h"

/* Append one zeroed entry; returns it or NULL when out of memory. */
static struct stackmap_snap_entry *add_entry(struct stackmap_snapshot *snap,
					     size_t *cap)
{
	struct stackmap_snap_entry *e;

	if (sm_array_reserve(&snap->entries, cap, snap->nr + 1, sizeof(*e), 64))
		return NULL;
	e = &snap->entries[snap->nr++];
	memset(e, 0, sizeof(*e));
	return e;
}

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

/* " map_id 0xID" at @s (stackmap 0.3 on), or nothing (map id 0, unknown). */
static int parse_map_id(const char *s, sm_u64 *map_id)
{
	unsigned long long id;
	int end = 0;

	*map_id = 0;
	if (!*s)
		return 0;
	if (sscanf(s, " map_id 0x%16llx%n", &id, &end) != 1 || s[end] || !id)
		return -EINVAL;
	*map_id = id;
	return 0;
}

static int parse_header(struct listing *l, struct stackmap_snapshot *out,
			struct sm_err *err)
{
	unsigned long long g;
	int ret, end = 0;

	ret = next_line(l, err);
	if (ret)
		return ret > 0 ? sm_err_code(err, -EINVAL, "%s: empty listing",
					     l->name) : ret;
	if (sscanf(l->buf, "# generation %llu entries %*u/%*u frames %*u/%*u bytes %*u%n",
		   &g, &end) != 1 || !end || !g || g > 0xffffffffULL ||
	    parse_map_id(l->buf + end, &out->map_id)) {
		sm_err_set(err, "%s:%lu: header: expected \"# generation G entries U/C frames U/C bytes B [map_id 0xID]\"",
			l->name, l->line);
		return -EINVAL;
	}
	out->generation = (sm_u32)g;
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
	ret = parse_header(&l, out, err);
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
