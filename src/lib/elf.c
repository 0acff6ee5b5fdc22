/*
 * elf.c - ELF files, read from memory with every offset checked: the
 * section table shared by cubins and host files, and host objects,
 * executables and shared libraries (whose fatbins hostelf.c finds). ELF
 * itself is the System V gABI.
 */
#include <string.h>

#include "bin.h"
#include "elf.h"

#define EM_CUDA 190
#define SHN_XINDEX 0xffff
#define SHT_NOBITS 8
/* The type of .nv.shared sections in relocatable cubins (-rdc): no file
 * data either (seen with nvcc 13.0). */
#define SHT_CUDA_SHARED 0x7000000a

/* Section header i (checked against the table's extent by elf_open). */
void elf_shdr(const struct elf *e, size_t i, struct elf_shdr *h)
{
	const uint8_t *p = e->s.p + e->shoff + i * 64;

	h->name = rd32(p);
	h->type = rd32(p + 4);
	h->flags = rd64(p + 8);
	h->offset = rd64(p + 24);
	h->size = rd64(p + 32);
	h->link = rd32(p + 40);
	h->info = rd32(p + 44);
	h->entsize = rd64(p + 56);
}

/* The section's bytes; NOBITS sections have none in the file. */
int elf_data(const struct elf *e, const struct elf_shdr *h, struct span *out)
{
	if (h->type == SHT_NOBITS || h->type == SHT_CUDA_SHARED) {
		out->p = e->s.p;
		out->n = 0;
		return 0;
	}
	return span_sub(e->s, h->offset, h->size, out);
}

/* A NUL-terminated string at off in a string table, or NULL. */
const char *elf_str(struct span tab, uint64_t off)
{
	if (off >= tab.n || !memchr(tab.p + off, '\0', tab.n - off))
		return NULL;
	return (const char *)tab.p + off;
}

/* The section count and the section-name table's index: beyond 0xff00
 * sections ELF keeps them in section 0 (gABI, "Extended Section
 * Numbering"). */
static enum occ_status elf_counts(struct bin_ctx *c, struct elf *e,
				  uint64_t *shnum, uint64_t *shstrndx)
{
	const uint8_t *p = e->s.p;

	*shnum = rd16(p + 0x3c);
	*shstrndx = rd16(p + 0x3e);
	if (e->shoff == 0 && *shnum == 0)
		return OCC_OK;
	if (e->shoff > e->s.n || e->s.n - e->shoff < 64)
		return bin_fail(c, OCC_ERR_CORRUPT, p + 0x28,
				"ELF section table at %llu lies past the end "
				"(%zu bytes)", (unsigned long long)e->shoff,
				e->s.n);
	if (*shnum == 0)
		*shnum = rd64(p + e->shoff + 32);
	if (*shstrndx == SHN_XINDEX)
		*shstrndx = rd32(p + e->shoff + 40);
	if (*shnum > (e->s.n - e->shoff) / 64)
		return bin_fail(c, OCC_ERR_CORRUPT, p + 0x3c,
				"ELF claims %llu sections, more than its %zu "
				"bytes can hold", (unsigned long long)*shnum,
				e->s.n);
	if (*shstrndx >= *shnum)
		return bin_fail(c, OCC_ERR_CORRUPT, p + 0x3e,
				"ELF section-name table index %llu is not "
				"among its %llu sections",
				(unsigned long long)*shstrndx,
				(unsigned long long)*shnum);
	return OCC_OK;
}

enum occ_status elf_open(struct bin_ctx *c, struct span s, struct elf *e)
{
	uint64_t shnum, shstrndx;
	struct elf_shdr h;
	enum occ_status st;

	memset(e, 0, sizeof *e);
	e->s = s;
	if (s.n < 64)
		return bin_fail(c, OCC_ERR_CORRUPT, s.p,
				"ELF header truncated (%zu bytes)", s.n);
	if (s.p[4] != 2 || s.p[5] != 1)
		return bin_fail(c, OCC_ERR_CORRUPT, s.p + 4,
				"only 64-bit little-endian ELF files are read");
	if (rd64(s.p + 0x28) != 0 && rd16(s.p + 0x3a) != 64)
		return bin_fail(c, OCC_ERR_CORRUPT, s.p + 0x3a,
				"ELF section header size %u is not 64",
				rd16(s.p + 0x3a));
	e->machine = rd16(s.p + 0x12);
	e->shoff = rd64(s.p + 0x28);
	if ((st = elf_counts(c, e, &shnum, &shstrndx)) != OCC_OK)
		return st;
	e->shnum = (size_t)shnum;
	if (e->shnum == 0)
		return OCC_OK;
	elf_shdr(e, (size_t)shstrndx, &h);
	if (elf_data(e, &h, &e->shstr))
		return bin_fail(c, OCC_ERR_CORRUPT, s.p + e->shoff,
				"ELF section-name table lies past the end");
	return OCC_OK;
}

/* The section's name, or "" when its offset is bad. */
const char *elf_name(const struct elf *e, const struct elf_shdr *h)
{
	const char *n = elf_str(e->shstr, h->name);

	return n ? n : "";
}

enum occ_status elf_read(struct bin_ctx *c, struct span s)
{
	struct elf e;
	enum occ_status st = elf_open(c, s, &e);

	if (st != OCC_OK)
		return st;
	if (e.machine == EM_CUDA)
		return cubin_read(c, &e);
	/* A host file is read from its source (host_walk), never here. */
	return bin_fail(c, OCC_ERR_CORRUPT, s.p, "a fatbin's ELF entry is not "
			"a CUDA ELF (machine %u)", e.machine);
}
