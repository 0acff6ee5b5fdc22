/* bin.h - reading binaries: bounded byte access and the reading context
 * shared by the ELF, fatbin and PTX readers (internal to the library). */
#ifndef OCC_BIN_H
#define OCC_BIN_H

#include <stddef.h>
#include <stdint.h>

#include "occcalc.h"

/* A byte range; every read goes through a bounds check against it. */
struct span {
	const uint8_t *p;
	size_t n;
};

/* Everything one read needs: the caller's callback, the file's start (to
 * turn pointers into file offsets for messages) and the diagnosis. */
struct bin_ctx {
	occ_bin_fn fn;
	void *ctx;
	int *fn_status;
	struct occ_bin_diag *diag;
	const uint8_t *file;     /* the outermost buffer */
	size_t file_len;
	int depth;               /* nesting: fatbin in ELF, ELF in fatbin */
	/* Set while reading a fatbin entry, for the kernels it holds. */
	enum occ_bin_container container;
	int64_t fatbin_offset;
	enum occ_bin_compression compression;
	uint64_t entry_flags;    /* the fatbin entry's flags; 0 outside */
	/* Offset in the file of the entry whose decompressed bytes are being
	 * read: messages about them point there. */
	uint64_t origin;
	int stopped;             /* the callback asked to stop */
};

/* Inside the outermost buffer: its offset there; else the offset of the
 * decompressed data's origin (the entry), which is the closest place. */
uint64_t bin_offset(const struct bin_ctx *c, const void *at);

/* Fills c->diag (offset of `at`) and returns st. */
enum occ_status bin_fail(struct bin_ctx *c, enum occ_status st,
			 const void *at, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

/* s[off, off+len) as *out when it lies within s. */
int span_sub(struct span s, uint64_t off, uint64_t len, struct span *out);

static inline uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t rd64(const uint8_t *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

/* Most nesting followed (a fatbin in an ELF file is depth 2). */
#define BIN_MAX_DEPTH 4

/* Readers by format; each recognises its magic before it is called. */
enum occ_status bin_read_any(struct bin_ctx *c, struct span s);
enum occ_status elf_read(struct bin_ctx *c, struct span s);
enum occ_status fatbin_read(struct bin_ctx *c, struct span s);
enum occ_status ptx_read(struct bin_ctx *c, struct span s, int sm,
			 uint64_t entry_flags);
/* A static library (ar.c): whether buf starts like one, and its members. */
int ar_sniff(const void *buf, size_t len);
/* A PTX file (ptx_file.c). */
int ptx_file_sniff(const void *buf, size_t len);
enum occ_status ptx_file_read(struct bin_ctx *c, struct span s);
enum occ_status ar_read(struct bin_ctx *c, struct span s);
/* Emits one kernel: the callback, stopping the read when it asks. */
enum occ_status bin_emit(struct bin_ctx *c, struct occ_bin_kernel *k);
void bin_kernel_init(struct bin_ctx *c, struct occ_bin_kernel *k);

/* Decompression (decompress.c): exactly out_len bytes into out. */
enum occ_status lz4_block_decode(struct span in, uint8_t *out, size_t out_len,
				 const char **why);
enum occ_status zstd_decode(struct span in, uint8_t *out, size_t out_len,
			    const char **why);

#define FATBIN_MAGIC 0xBA55ED50u

#endif
