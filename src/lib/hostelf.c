/*
 * hostelf.c - host objects, executables and shared libraries, read from
 * their source piece by piece: the ELF header, the section table and its
 * names, then the fatbins of .nv_fatbin (__nv_relfatbin for relocatable
 * device code), whose entries the scheduler reads. Only headers are held;
 * a 500 MB library is never in memory whole. The section names are those
 * of CUDA's fatbinary_section.h; ELF itself is the System V gABI. The
 * checks and messages are elf.c's, for the same faults.
 */
#include <stdlib.h>
#include <string.h>

#include "bin.h"

#define SHN_XINDEX 0xffff
#define SHT_NOBITS 8
#define SHT_CUDA_SHARED 0x7000000a

struct host {
	uint64_t base, n;              /* the file's place in the source */
	uint64_t shoff, shnum, shstrndx;
	struct bin_win w;              /* section headers, padding */
	struct bin_buf names;          /* the section-name table */
	const uint8_t *shstr;
	uint64_t shstr_n;
};

struct sect {
	uint32_t name, type;
	uint64_t offset, size;
};

enum occ_status src_fail(struct bin_ctx *c, enum occ_status st, uint64_t off)
{
	if (st == OCC_ERR_NOMEM)
		return st;
	if (st == OCC_ERR_CORRUPT)
		return bin_fail_off(c, st, off, "data runs past the end of the "
				    "file");
	return bin_fail_off(c, OCC_ERR_IO, off, "cannot read (the file "
			    "changed while occcalc read it?)");
}

static enum occ_status sect_at(struct bin_ctx *c, struct host *h, uint64_t i,
			       struct sect *out)
{
	const uint8_t *p;
	uint64_t at = h->base + h->shoff + i * 64;
	enum occ_status st = win_get(c->src, &h->w, at, 64, &p);

	if (st != OCC_OK)
		return src_fail(c, st, at);
	out->name = rd32(p);
	out->type = rd32(p + 4);
	out->offset = rd64(p + 24);
	out->size = rd64(p + 32);
	return OCC_OK;
}

static int sect_in_file(const struct host *h, const struct sect *s)
{
	return s->type == SHT_NOBITS || s->type == SHT_CUDA_SHARED ||
	       (s->offset <= h->n && s->size <= h->n - s->offset);
}

/* The header's checks (elf_open, elf_counts) on the file's first bytes. */
static enum occ_status host_header(struct bin_ctx *c, struct host *h)
{
	const uint8_t *p;
	uint64_t n = h->n, b = h->base;
	enum occ_status st = n < 64 ? OCC_OK : win_get(c->src, &h->w, b, 64, &p);

	if (n < 64)
		return bin_fail_off(c, OCC_ERR_CORRUPT, b, "ELF header "
				    "truncated (%llu bytes)",
				    (unsigned long long)n);
	if (st != OCC_OK)
		return src_fail(c, st, b);
	if (p[4] != 2 || p[5] != 1)
		return bin_fail_off(c, OCC_ERR_CORRUPT, b + 4, "only 64-bit "
				    "little-endian ELF files are read");
	if (rd64(p + 0x28) != 0 && rd16(p + 0x3a) != 64)
		return bin_fail_off(c, OCC_ERR_CORRUPT, b + 0x3a, "ELF section "
				    "header size %u is not 64", rd16(p + 0x3a));
	h->shoff = rd64(p + 0x28);
	h->shnum = rd16(p + 0x3c);
	h->shstrndx = rd16(p + 0x3e);
	return OCC_OK;
}

static enum occ_status host_counts(struct bin_ctx *c, struct host *h)
{
	const uint8_t *p;
	uint64_t n = h->n, b = h->base;
	enum occ_status st;

	if (h->shoff == 0 && h->shnum == 0)
		return OCC_OK;
	if (h->shoff > n || n - h->shoff < 64)
		return bin_fail_off(c, OCC_ERR_CORRUPT, b + 0x28, "ELF section "
				    "table at %llu lies past the end (%llu "
				    "bytes)", (unsigned long long)h->shoff,
				    (unsigned long long)n);
	if ((st = win_get(c->src, &h->w, b + h->shoff, 64, &p)) != OCC_OK)
		return src_fail(c, st, b + h->shoff);
	if (h->shnum == 0)
		h->shnum = rd64(p + 32);
	if (h->shstrndx == SHN_XINDEX)
		h->shstrndx = rd32(p + 40);
	if (h->shnum > (n - h->shoff) / 64)
		return bin_fail_off(c, OCC_ERR_CORRUPT, b + 0x3c, "ELF claims %llu "
				    "sections, more than its %llu bytes can "
				    "hold", (unsigned long long)h->shnum,
				    (unsigned long long)n);
	if (h->shstrndx >= h->shnum)
		return bin_fail_off(c, OCC_ERR_CORRUPT, b + 0x3e, "ELF section-name "
				    "table index %llu is not among its %llu "
				    "sections", (unsigned long long)h->shstrndx,
				    (unsigned long long)h->shnum);
	return OCC_OK;
}

static enum occ_status host_names(struct bin_ctx *c, struct host *h)
{
	struct sect s;
	enum occ_status st;

	if (h->shnum == 0)
		return OCC_OK;
	if ((st = sect_at(c, h, h->shstrndx, &s)) != OCC_OK)
		return st;
	if (!sect_in_file(h, &s))
		return bin_fail_off(c, OCC_ERR_CORRUPT, h->base + h->shoff, "ELF "
				    "section-name table lies past the end");
	if (s.type == SHT_NOBITS || s.type == SHT_CUDA_SHARED)
		return OCC_OK;
	h->shstr_n = s.size;
	if ((st = src_read(c->src, h->base + s.offset, (size_t)s.size,
			   &h->names, &h->shstr)) != OCC_OK)
		return src_fail(c, st, h->base + s.offset);
	return OCC_OK;
}

static const char *sect_name(const struct host *h, const struct sect *s)
{
	if (s->name >= h->shstr_n ||
	    !memchr(h->shstr + s->name, '\0', h->shstr_n - s->name))
		return "";
	return (const char *)h->shstr + s->name;
}

/* Fatbins one after another, as the linker concatenates them, with zero
 * padding between them. */
static enum occ_status fatbins_in(struct bin_ctx *c, struct host *h,
				  uint64_t off, uint64_t n)
{
	uint64_t p = 0;
	const uint8_t *b;
	enum occ_status st;

	while (p < n) {
		uint64_t size;

		if ((st = win_get(c->src, &h->w, off + p, 1, &b)) != OCC_OK)
			return src_fail(c, st, off + p);
		if (*b == 0) {
			p++;
			continue;
		}
		if (n - p < 16 || (st = win_get(c->src, &h->w, off + p, 16,
						&b)) != OCC_OK ||
		    rd32(b) != FATBIN_MAGIC)
			return bin_fail_off(c, OCC_ERR_CORRUPT, off + p,
					    "no fatbin where the section's next "
					    "one should start");
		size = rd64(b + 8);
		if (size > n - p - 16)
			return bin_fail_off(c, OCC_ERR_CORRUPT, off + p,
					    "fatbin of %llu bytes runs past "
					    "the end of its section",
					    (unsigned long long)size);
		if ((st = fatbin_walk(c, off + p, 16 + size)) != OCC_OK)
			return st;
		p += 16 + size;
	}
	return OCC_OK;
}

static int is_fatbin_section(const char *name)
{
	return strcmp(name, ".nv_fatbin") == 0 ||
	       strcmp(name, "__nv_relfatbin") == 0;
}

static enum occ_status host_sections(struct bin_ctx *c, struct host *h)
{
	enum occ_status st;

	for (uint64_t i = 0; i < h->shnum; i++) {
		struct sect s;
		const char *name;

		if ((st = sect_at(c, h, i, &s)) != OCC_OK)
			return st;
		name = sect_name(h, &s);
		if (!is_fatbin_section(name))
			continue;
		if (!sect_in_file(h, &s))
			return bin_fail_off(c, OCC_ERR_CORRUPT,
					    h->base + h->shoff + i * 64,
					    "section %s lies past the end of "
					    "the file", name);
		if (s.type == SHT_NOBITS || s.type == SHT_CUDA_SHARED)
			continue;
		c->container = OCC_BIN_HOST_ELF;
		if ((st = fatbins_in(c, h, h->base + s.offset, s.size)) != OCC_OK)
			return st;
	}
	return OCC_OK;
}

/* The fatbins in the other sections of the host file h, counted; set (a
 * scan_set) holds the sections scanned. */
static enum occ_status data_sections(struct bin_ctx *c, struct host *h,
				     void *set_)
{
	struct scan_set *set = set_;
	enum occ_status st = OCC_OK;

	for (uint64_t i = 0; i < h->shnum && st == OCC_OK; i++) {
		struct sect s;

		if ((st = sect_at(c, h, i, &s)) != OCC_OK)
			break;
		if (s.type != 1 /* SHT_PROGBITS */ ||
		    is_fatbin_section(sect_name(h, &s)) || !sect_in_file(h, &s))
			continue;
		if (scan_add(set, s.offset, s.size))
			st = OCC_ERR_NOMEM;
	}
	/* The sections before a fault are scanned, as they were before it
	 * was met; a failure among them comes first. */
	if (st != OCC_ERR_NOMEM) {
		enum occ_status scanned = scan_count(c, set, sched_jobs(c->sched),
						     &c->contents->data_fatbins);

		if (scanned != OCC_OK)
			st = scanned;
	}
	return st;
}

/* The host file at [base, base + n) opened (header, section counts and
 * names), then what does the work on its sections. */
static enum occ_status host_open(struct bin_ctx *c, uint64_t base, uint64_t n,
				 enum occ_status (*work)(struct bin_ctx *,
							 struct host *, void *),
				 void *ctx)
{
	struct host h;
	enum occ_status st;

	memset(&h, 0, sizeof h);
	h.base = base;
	h.n = n;
	if ((st = host_header(c, &h)) == OCC_OK &&
	    (st = host_counts(c, &h)) == OCC_OK &&
	    (st = host_names(c, &h)) == OCC_OK)
		st = work(c, &h, ctx);
	buf_free(&h.w.buf);
	buf_free(&h.names);
	return st;
}

static enum occ_status walk_fatbins(struct bin_ctx *c, struct host *h,
				   void *ctx)
{
	(void)ctx;
	return host_sections(c, h);
}

/* A host file whose fatbin sections gave no kernel: the fatbins its other
 * sections hold (a library that loads its own code, as cuFFT 12's .ldata),
 * for the caller to say what the file holds. */
enum occ_status host_data_fatbins(struct bin_ctx *c)
{
	struct scan_set set = { NULL, 0, 0 };
	enum occ_status st = host_open(c, 0, c->src->len, data_sections, &set);

	scan_free(&set);
	return st;
}

enum occ_status host_walk(struct bin_ctx *c, uint64_t base, uint64_t n)
{
	return host_open(c, base, n, walk_fatbins, NULL);
}
