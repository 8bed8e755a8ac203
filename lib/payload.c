// SPDX-License-Identifier: GPL-2.0
/*
 * payload: encode and decode the snapshot payload whose layout
 * include/stackmap/snapshot.h defines, and the CRC-32 that guards it (see
 * payload.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "payload.h"

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
	put64(p + 32, snap->map_id);
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

/* Header size of a payload of version @v (2 or 3). */
static size_t header_size(sm_u32 v)
{
	return v == 2 ? STACKMAP_SNAPSHOT_HDR_SIZE_V2 : STACKMAP_SNAPSHOT_HDR_SIZE;
}

static int decode_header(const unsigned char *p, size_t len,
			 struct stackmap_snapshot *out, size_t *hdr,
			 struct sm_err *err)
{
	sm_u32 v, crc;

	if (len < STACKMAP_SNAPSHOT_HDR_SIZE_V2) {
		sm_err_set(err, "snapshot offset 0: header truncated (%zu of %d bytes)",
			len, STACKMAP_SNAPSHOT_HDR_SIZE_V2);
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
	if (v != 2 && v != STACKMAP_SNAPSHOT_VERSION) {
		sm_err_set(err, "snapshot offset 8: version: %u, only 2 and %d are known",
			v, STACKMAP_SNAPSHOT_VERSION);
		return -EPROTONOSUPPORT;
	}
	*hdr = header_size(v);
	if (len < *hdr) {
		sm_err_set(err, "snapshot offset 0: header truncated (%zu of %zu bytes)",
			len, *hdr);
		return -EBADMSG;
	}
	if (get32(p + 12)) {
		sm_err_set(err, "snapshot offset 12: flags: 0x%x, expected 0",
			get32(p + 12));
		return -EBADMSG;
	}
	out->map_id = v == 2 ? 0 : get64(p + 32);
	crc = stackmap_crc32(p + *hdr, len - *hdr);
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
	if (out->nr > (len - *hdr) / STACKMAP_SNAPSHOT_ENTRY_SIZE) {
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
	size_t off = 0;
	sm_u32 i;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = decode_header(p, len, out, &off, err);
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
