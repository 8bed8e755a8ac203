/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The frames field of stack_define (events.h): a stack's return addresses,
 * packed.
 *
 * The field holds @depth varints and nothing else, one per frame, innermost
 * first.  Frame i is written as its difference from frame i - 1 (frame 0's
 * from 0), taken modulo 2^64 as a signed number d, zigzag-mapped to
 * unsigned ((d << 1) ^ (d < 0 ? ~0 : 0): 0, -1, 1, -2 become 0, 1, 2, 3) and
 * written as an unsigned LEB128 varint: 7 bits a byte, the low group first,
 * bit 7 set on every byte but the last, at most 10 bytes.  It is protobuf's
 * sint64 encoding (protobuf.dev, "Encoding": ZigZag, varints) applied to the
 * deltas; DWARF's ULEB128 is the same varint.  A 32-bit kernel's addresses
 * are zero-extended to 64 bits first; a decoder gets back exactly the
 * addresses the old ips[] array held.
 *
 * Why: the addresses of one stack (kernel text, modules, BPF programs,
 * trampolines) lie within a few hundred MiB of each other, so a frame takes
 * 3-4 bytes instead of 8; frame 0 takes 5 on x86-64 (its kernel addresses
 * are -2 GiB..0 as signed numbers) and 7 on arm64.  A definition is most of
 * what a flight recorder must keep beside its cookies.
 *
 * Both halves are here so that the module, the decoders and the tests share
 * one implementation: stackmap_frames_size() and stackmap_frames_pack() for
 * the writer (any context: no allocation, no locks), stackmap_frames_unpack()
 * for readers.
 */
#ifndef STACKMAP_FRAMES_H
#define STACKMAP_FRAMES_H

#include "types.h"

/* Most bytes one frame's varint takes (64 bits in groups of 7). */
#define STACKMAP_FRAME_MAX_BYTES	10

/* The zigzag of the delta from @prev to @addr (modulo 2^64). */
static inline sm_u64 stackmap_frame_zigzag(sm_u64 addr, sm_u64 prev)
{
	sm_u64 d = addr - prev;

	return (d << 1) ^ ((sm_u64)0 - (d >> 63));
}

/* Bytes of the varint of @z: 1 to STACKMAP_FRAME_MAX_BYTES. */
static inline sm_u32 stackmap_varint_size(sm_u64 z)
{
	sm_u32 n = 1;

	while (z >= 0x80) {
		z >>= 7;
		n++;
	}
	return n;
}

/**
 * stackmap_frames_size() - bytes the frames field of @depth frames takes
 * @ips: return addresses, innermost first
 * @depth: how many
 *
 * Return: the exact length stackmap_frames_pack() writes, at most
 * @depth * STACKMAP_FRAME_MAX_BYTES.
 */
static inline sm_u32 stackmap_frames_size(const unsigned long *ips,
					  sm_u32 depth)
{
	sm_u64 prev = 0;
	sm_u32 i, len = 0;

	for (i = 0; i < depth; i++) {
		len += stackmap_varint_size(stackmap_frame_zigzag(ips[i], prev));
		prev = ips[i];
	}
	return len;
}

/**
 * stackmap_frames_pack() - write the frames field
 * @out: stackmap_frames_size(@ips, @depth) bytes
 * @ips: return addresses, innermost first
 * @depth: how many
 *
 * Return: bytes written.
 */
static inline sm_u32 stackmap_frames_pack(unsigned char *out,
					  const unsigned long *ips,
					  sm_u32 depth)
{
	sm_u64 prev = 0, z;
	sm_u32 i, len = 0;

	for (i = 0; i < depth; i++) {
		z = stackmap_frame_zigzag(ips[i], prev);
		prev = ips[i];
		while (z >= 0x80) {
			out[len++] = (unsigned char)(z | 0x80);
			z >>= 7;
		}
		out[len++] = (unsigned char)z;
	}
	return len;
}

/* What stackmap_frames_unpack() found wrong. */
enum stackmap_frames_error {
	STACKMAP_FRAMES_OK = 0,
	/* The field ends inside a varint or before @depth of them. */
	STACKMAP_FRAMES_SHORT,
	/* A varint is longer than 10 bytes or holds more than 64 bits. */
	STACKMAP_FRAMES_OVERLONG,
	/* Bytes follow the @depth-th varint. */
	STACKMAP_FRAMES_TRAILING,
};

/**
 * stackmap_frames_unpack() - read the frames field back
 * @in: the field's bytes
 * @len: how many
 * @depth: frames the record's depth field says it holds
 * @frames: @depth addresses out, innermost first
 * @at: on error, the byte offset in @in where the field went wrong
 *
 * Return: STACKMAP_FRAMES_OK, or what was wrong (enum above); @frames then
 * holds only the frames before @at.
 */
static inline enum stackmap_frames_error
stackmap_frames_unpack(const unsigned char *in, sm_u32 len, sm_u32 depth,
		       sm_u64 *frames, sm_u32 *at)
{
	sm_u64 prev = 0, z;
	sm_u32 i, pos = 0, shift, start;

	*at = 0;
	for (i = 0; i < depth; i++) {
		z = 0;
		shift = 0;
		start = pos;
		for (;;) {
			if (pos >= len) {
				*at = start;
				return STACKMAP_FRAMES_SHORT;
			}
			if (shift == 63 && in[pos] > 1) {
				*at = start;
				return STACKMAP_FRAMES_OVERLONG;
			}
			z |= (sm_u64)(in[pos] & 0x7f) << shift;
			if (!(in[pos++] & 0x80))
				break;
			shift += 7;
		}
		prev += (z >> 1) ^ ((sm_u64)0 - (z & 1));
		frames[i] = prev;
	}
	if (pos != len) {
		*at = pos;
		return STACKMAP_FRAMES_TRAILING;
	}
	return STACKMAP_FRAMES_OK;
}

#endif /* STACKMAP_FRAMES_H */
