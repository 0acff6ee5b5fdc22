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
	/* The device whose image of each fatbin is read (major * 10 + minor),
	 * 0: every image; and, inside a fatbin, how its image was chosen. */
	int target_cc;
	enum occ_bin_image image;
	int images, images_run;
	int capped;              /* a kernel read had a register cap */
	struct occ_bin_contents *contents;   /* counted into, or NULL */
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

/* A fatbin entry as its header describes it: what the driver chooses the
 * image to load by (imagechoice.c). */
struct image_desc {
	int candidate;           /* SASS or PTX (not LTO-IR or another kind) */
	int ptx;                 /* PTX text, else an ELF (SASS) */
	int sm;                  /* the target: 90 for sm_90a and compute_90 */
	char suffix;             /* 'a' (arch-specific), 'f' (family), or 0 */
};

/* The index of the image the driver loads on a device of compute
 * capability cc (major * 10 + minor), or -1 when none runs there; *why says
 * which kind it is, *runnable how many images could run there. */
int image_choose(const struct image_desc *d, size_t n, int cc,
		 enum occ_bin_image *why, int *runnable);

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
