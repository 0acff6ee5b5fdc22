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

/* Where the bytes come from: a buffer in memory, or a file read piece
 * by piece (pread), so that a large file is never held whole. */
struct bin_src {
	const uint8_t *mem;      /* NULL: read from fd */
	int fd;
	uint64_t len;
};

/* A reusable buffer, grown as needed and kept (one per thread); a lent
 * one is memory of the arena, which buf_free only forgets. */
struct bin_buf {
	uint8_t *p;
	size_t cap;
	int lent;
};

/* What a read of bytes at an offset found: a pointer to them (into the
 * memory source or into the buffer given). */
enum occ_status src_read(const struct bin_src *s, uint64_t off, size_t n,
			 struct bin_buf *b, const uint8_t **out);
/* A window for small reads that move forward (headers, padding): bytes
 * [off, off + n) are read ahead in one piece of at least WINDOW bytes. */
struct bin_win {
	struct bin_buf buf;
	uint64_t off;
	size_t n;
	const uint8_t *p;
};
enum occ_status win_get(const struct bin_src *s, struct bin_win *w,
			uint64_t off, size_t n, const uint8_t **out);
int buf_reserve(struct bin_buf *b, size_t n);
/* Room for n bytes, the first used kept (buf_reserve keeps none). */
int buf_extend(struct bin_buf *b, size_t used, size_t n);
void buf_free(struct bin_buf *b);

struct bin_sched;
struct bin_scratch;

/* Everything one read needs: the caller's callback, the window of the
 * file being read (to turn pointers into file offsets for messages) and
 * the diagnosis. */
struct bin_ctx {
	occ_bin_fn fn;
	void *ctx;
	int *fn_status;
	struct occ_bin_diag *diag;
	const uint8_t *file;     /* the bytes of the file at hand */
	size_t file_len;
	uint64_t file_off;       /* their offset in the file */
	const struct bin_src *src;
	struct bin_sched *sched; /* runs fatbin entries, delivers in order */
	struct bin_scratch *scratch;  /* the running thread's buffers */
	const struct occ_bin_opts *opts;
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
	int host_top;            /* the source is a host ELF file */
	struct occ_bin_contents *contents;   /* counted into, or NULL */
	/* Offset in the file of the entry whose decompressed bytes are being
	 * read: messages about them point there. */
	uint64_t origin;
	int stopped;             /* the callback asked to stop */
	int keep_ptx_text;       /* PTX rows carry their text (ptxas) */
};

/* Inside the outermost buffer: its offset there; else the offset of the
 * decompressed data's origin (the entry), which is the closest place. */
uint64_t bin_offset(const struct bin_ctx *c, const void *at);

/* Fills c->diag (the file offset given) and returns st. */
enum occ_status bin_fail_off(struct bin_ctx *c, enum occ_status st,
			     uint64_t off, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

/* A failed src_read or win_get at off, said in c->diag. */
enum occ_status src_fail(struct bin_ctx *c, enum occ_status st, uint64_t off);

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
/* A file by path, with the scheduler given (NULL: one of its own). */
enum occ_status bin_read_path(const char *path,
			      const struct occ_bin_opts *opts,
			      struct bin_sched *sched, occ_bin_fn fn,
			      void *ctx, int *fn_status,
			      struct occ_bin_diag *diag);
enum occ_status elf_read(struct bin_ctx *c, struct span s);
/* A fatbin at [off, off + n) of the source: its entries' headers read
 * first, the images wanted handed to the scheduler. */
enum occ_status fatbin_walk(struct bin_ctx *c, uint64_t off, uint64_t n);
/* A host ELF file (object, executable, library) from the source: its
 * headers, then the fatbins of its fatbin sections (hostelf.c). */
enum occ_status host_walk(struct bin_ctx *c, uint64_t base, uint64_t n);
/* A static library from the source: its members read as if alone (ar.c). */
enum occ_status ar_walk(struct bin_ctx *c);
/* Whether text is all blank and comments (a PTX file's start, perhaps). */
int ptx_blank(const void *buf, size_t len);
/* The first what in [p, end), or NULL (ptx.c; ptx_file.c uses it too). */
const char *ptx_find(const char *p, const char *end, const char *what);
/* [off, off + n) of the source read whole, then handed to read. */
enum occ_status bin_read_whole(struct bin_ctx *c, uint64_t off, uint64_t n,
			       enum occ_status (*read)(struct bin_ctx *,
						       struct span));
/* For a host file that gave no kernel: the fatbins in its other sections,
 * counted into c->contents->data_fatbins (hostelf.c). */
enum occ_status host_data_fatbins(struct bin_ctx *c);
enum occ_status ptx_read(struct bin_ctx *c, struct span s, int sm,
			 uint64_t entry_flags);
/* A static library (ar.c): whether buf starts like one, and its members. */
int ar_sniff(const void *buf, size_t len);
/* A PTX file (ptx_file.c). */
int ptx_file_sniff(const void *buf, size_t len);
enum occ_status ptx_file_read(struct bin_ctx *c, struct span s);
/* Emits one kernel: the callback, stopping the read when it asks. */
enum occ_status bin_emit(struct bin_ctx *c, struct occ_bin_kernel *k);
/* k (its file set) to the callback, counted; what the callback returned,
 * nonzero to stop (c->stopped and *c->fn_status then set). */
int bin_call(struct bin_ctx *c, struct occ_bin_kernel *k);
void bin_kernel_init(struct occ_bin_kernel *k);

/* One fatbin entry: its header's facts and where its payload lies. */
struct bin_entry {
	unsigned kind;
	uint64_t flags;
	unsigned sm;
	uint64_t csize, usize;
	uint64_t off;            /* the payload's offset in the source */
	uint64_t size;           /* its stored size */
	uint64_t window;         /* a Zstandard frame's window; 0: unknown */
};

/* A thread's buffers: the payload read, the image decompressed, and the
 * Zstandard context (decompress.c); a sparse image's stream is read from
 * the file into feed a piece at a time (sparse.c) by zstream, a context
 * placed in the arena with its window (NULL: zstd's is used). */
struct bin_scratch {
	struct bin_buf in, out, chunk, feed;
	void *zstd, *zstream;
};

/* Zstandard cubins this large, whose frame's window is smaller than the
 * image, are decompressed sparsely (sparse.c): the stream passes through
 * the window and only the pages of the sections the reader reads are
 * kept. (fatbinary writes frames of 2 MB or more with a 2 or 8 MB
 * window, smaller ones as one segment, which needs the whole image.) */
#define SPARSE_MIN ((uint64_t)2 << 20)
/* What a sparse image keeps besides its window: the pages read. */
#define SPARSE_KEPT ((uint64_t)1 << 20)
/* The piece of a streamed payload read at a time, and of its image
 * decompressed at a time. */
#define SPARSE_FEED ((uint64_t)256 << 10)
#define SPARSE_CHUNK ((uint64_t)128 << 10)
/* Room before each piece a stream hands over, the receiver's to write:
 * PTX joins the text it kept onto the piece there (ptx.c) instead of
 * copying every piece after what it kept. */
#define STREAM_FRONT ((uint64_t)4 << 10)
/* Whether the entry is read as a stream: a large windowed Zstandard
 * cubin sparsely, a large PTX text scanned as it passes when its text is
 * not kept. */
int sparse_wanted(const struct bin_entry *en, int keep_ptx_text);
/* Receives [pos, pos + n) of a stream at p, which it may write, with
 * the STREAM_FRONT bytes before p, until it returns; a status other than
 * OCC_OK (with c->diag filled) stops it. */
typedef enum occ_status (*stream_fn)(void *ctx, uint64_t pos, uint8_t *p,
				     size_t n);
/* The Zstandard stream in (see sparse_cubin), usize bytes, handed to fn
 * in pieces. *why says what is wrong with the stream; NULL when fn
 * stopped it. */
enum occ_status zstd_stream(struct bin_scratch *sc, const struct bin_src *src,
			    uint64_t off, struct span in, uint64_t usize,
			    stream_fn fn, void *ctx, const char **why);
/* A streamed entry's failure reported (fatbin.c): st as zstd_stream or
 * sparse_cubin gave it, at the payload's bytes at. */
enum occ_status stream_fail(struct bin_ctx *c, const struct bin_entry *en,
			    const void *at, enum occ_status st,
			    const char *why);
/* A PTX entry's kernels from its Zstandard stream (ptx.c). */
enum occ_status ptx_stream(struct bin_ctx *c, const struct bin_entry *en,
			   struct span in);
/* The window of the Zstandard frame whose first n bytes are at p (RFC
 * 8878, 3.1.1.1), 0 if they do not start one; a single-segment frame's
 * is its content, usize. */
uint64_t zstd_window(const uint8_t *p, size_t n, uint64_t usize);
/* The entry's payload, unless its source is in memory, is not read whole
 * for a sparse image: its stream is read in pieces as it is decompressed. */
int sparse_streamed(const struct bin_src *src, const struct bin_entry *en,
		    int keep_ptx_text);
/* The image in *out, within a mapping (*map, usize bytes) to unmap; the
 * compressed stream is in.n bytes at offset off of src (at in.p when the
 * source is in memory). */
enum occ_status sparse_cubin(struct bin_scratch *sc, const struct bin_src *src,
			     uint64_t off, struct span in, uint64_t usize,
			     struct span *out, void **map, const char **why);
void scratch_free(struct bin_scratch *s);
/* A Zstandard context's memory (a streamed read leaves it a window), and
 * the context freed. */
size_t zstd_ctx_bytes(const void *z);
void zstd_ctx_free(void *z);
/* The memory a streamed read of a frame with this window needs, and a
 * context made in that much at ws (NULL when libzstd cannot place one:
 * the thread's own context then grows its window). */
uint64_t zstd_stream_bytes(uint64_t window);
void *zstd_stream_ctx(void *ws, size_t n);

/* Reads one entry's images into rows (fatbin.c); runs on any thread. */
enum occ_status entry_read(struct bin_ctx *c, const struct bin_entry *en,
			   struct span payload);

/* The memory images are read into (arena.c): mapped once, its pages
 * written again by image after image, given out as runs of whole units
 * to at most cap readers at a time. */
#define ARENA_UNIT ((uint64_t)64 << 10)
struct arena {
	uint8_t *base;
	uint64_t len, home;                  /* now; as opened */
	struct { uint64_t off, len; } *run;  /* by offset */
	size_t nrun, cap;
};
int arena_open(struct arena *a, uint64_t bytes, size_t runs);
void arena_close(struct arena *a);
/* Most a compressed entry may claim to expand to (fatbin.c). */
#define MAX_DECOMPRESSED ((uint64_t)1 << 30)
/* The empty arena made at least bytes long (-1: it is not, and stays as
 * it was), and made its own length again. Images past ARENA_GROW_MAX (an
 * image of the most decompressed, and its payload) are read in memory of
 * their own, as they come. */
#define ARENA_GROW_MAX (2 * MAX_DECOMPRESSED)
int arena_grow(struct arena *a, uint64_t bytes);
void arena_shrink(struct arena *a);
uint64_t arena_round(uint64_t bytes);
/* The arena of a budget of bytes for this many threads. */
uint64_t arena_for(uint64_t bytes, size_t threads);
/* The largest run that can be taken now (0: none), whether a run of
 * bytes can, and it taken (NULL: not) and given back. */
uint64_t arena_largest(const struct arena *a);
int arena_fits(const struct arena *a, uint64_t bytes);
uint8_t *arena_take(struct arena *a, uint64_t bytes);
void arena_give(struct arena *a, const uint8_t *p);

/* What reading en needs of the arena (scratch.c): its payload (unless it
 * is streamed from the file or in memory), its image (unless sparse) and
 * for a streamed read a Zstandard context with its window. */
uint64_t entry_need(const struct bin_src *src, const struct bin_entry *en,
		    int keep_ptx_text);
/* What reading en keeps beside the arena: a sparse cubin's pages. */
uint64_t entry_kept(const struct bin_entry *en, int keep_ptx_text);
/* The scratch's buffers for en placed in run (entry_need bytes; NULL:
 * the scratch allocates its own), and after the read given back, what
 * was allocated freed. */
void scratch_lend(struct bin_scratch *sc, uint8_t *run,
		  const struct bin_src *src, const struct bin_entry *en,
		  int keep_ptx_text);
void scratch_return(struct bin_scratch *sc);

/* The scheduler (sched.c): entries read on a pool of threads, their
 * kernels delivered to the callback in the order they were submitted. */
struct bin_sched *sched_open(int jobs);
void sched_close(struct bin_sched *s);
/* The threads it reads with (1: the caller's only). */
int sched_jobs(const struct bin_sched *s);

/* Fatbin headers counted in ranges of the source (datascan.c): the
 * ranges added, then scanned on up to jobs threads. */
struct scan_piece;
struct scan_set {
	struct scan_piece *p;
	size_t n, cap;
};
int scan_add(struct scan_set *set, uint64_t off, uint64_t n);
enum occ_status scan_count(struct bin_ctx *c, struct scan_set *set,
			   int jobs, uint64_t *count);
void scan_free(struct scan_set *set);
/* Submits an entry read in c's context (container, fatbin), and the PTX
 * entries to read after it when one of its kernels has a register cap
 * (copied; may be NULL); returns the first failure delivered so far (then
 * reading stops). */
enum occ_status sched_submit(struct bin_ctx *c, const struct bin_entry *en,
			     const struct bin_entry *beside, size_t nbeside);
/* Delivers every entry submitted; st is the reader's own status, which a
 * failure of an earlier entry replaces. */
enum occ_status sched_finish(struct bin_ctx *c, enum occ_status st);

/* Decompression (decompress.c): exactly out_len bytes into out; a
 * Zstandard frame may use cap bytes there, and lie in their end. */
enum occ_status lz4_block_decode(struct span in, uint8_t *out, size_t out_len,
				 const char **why);
enum occ_status zstd_decode(struct bin_scratch *sc, struct span in,
			    uint8_t *out, size_t out_len, size_t cap,
			    const char **why);
/* How much more than a frame's usize bytes it needs to be decompressed in
 * place, its payload at their end (0: this libzstd cannot, safely). */
uint64_t zstd_in_place_margin(uint64_t usize);

#define FATBIN_MAGIC 0xBA55ED50u
/* A fatbin entry's kind and flags (fatbin.c says where they were read):
 * how it is compressed, and the target's suffix ("sm_90a", "sm_120f"). */
enum { KIND_PTX = 1, KIND_ELF = 2, KIND_LTOIR = 8 };
#define FLAG_LZ4 0x2000u
#define FLAG_ZSTD 0x8000u
#define FLAG_ARCH_SPECIFIC 0x100000u
#define FLAG_FAMILY 0x200000u

#endif
