/*
 * cubin.c - a CUDA ELF's kernels and the resources ptxas recorded for them.
 *
 * Where each figure lives was found by compiling t/fixtures/bin/kernels.cu
 * with nvcc 13.0 for sm_75 to sm_121 and comparing with ptxas -v (see
 * t/fixtures/bin/README); the record format and attribute numbers agree
 * with Hayes et al., "Decoding CUDA Binary" (CGO 2019, and its elfmanip.hpp)
 * and CuAssembler's CuNVInfo.py. A kernel X has sections .text.X,
 * .nv.info.X (its attributes; sh_info: .text.X) and .nv.shared.X (static
 * shared memory, NOBITS; sh_info: .text.X). The file-wide .nv.info holds
 * per-function records keyed by symbol index.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bin.h"
#include "elf.h"

#define SHT_SYMTAB 2
#define STT_FUNC 2
/* st_other bit of a kernel's symbol: relocatable cubins give device
 * functions an .nv.info.X too, but not this bit (seen with nvcc 13.0). */
#define STO_ENTRY 0x10

/* .nv.info record formats (EIFMT_*) and the attributes read (EIATTR_*). */
enum { FMT_NVAL = 1, FMT_BVAL = 2, FMT_HVAL = 3, FMT_SVAL = 4 };
enum {
	ATTR_MAX_THREADS = 0x05,      /* __launch_bounds__ / .maxntid: x y z */
	ATTR_REQNTID = 0x10,          /* .reqntid: x y z */
	ATTR_FRAME_SIZE = 0x11,       /* symbol, bytes */
	ATTR_MIN_STACK_SIZE = 0x12,   /* symbol, bytes (calls included) */
	ATTR_MAXREG_COUNT = 0x1b,     /* register cap (HVAL) */
	ATTR_REGCOUNT = 0x2f,         /* symbol, registers */
	ATTR_CTA_PER_CLUSTER = 0x3d,  /* __cluster_dims__: x y z */
	ATTR_MAX_CLUSTER_RANK = 0x3f,
	ATTR_NUM_BARRIERS = 0x4c      /* block barriers (BVAL) */
};
/* .nv.compat attribute 9: 1 for an architecture-specific ("a") target
 * (sm_90 and sm_90a cubins differ only there and in .note.nv.tkinfo). */
#define COMPAT_ARCH_SPECIFIC 9


struct nvattr {
	unsigned fmt, attr, hval;
	struct span val;
};

/* The next record of an .nv.info section: 1, 0 at the end, -1 corrupt. */
static int nvinfo_next(struct span s, size_t *pos, struct nvattr *a)
{
	const uint8_t *p;

	if (*pos == s.n)
		return 0;
	if (s.n - *pos < 4)
		return -1;
	p = s.p + *pos;
	a->fmt = p[0];
	a->attr = p[1];
	a->hval = rd16(p + 2);
	a->val.p = p + 4;
	a->val.n = 0;
	if (a->fmt < FMT_NVAL || a->fmt > FMT_SVAL)
		return -1;
	if (a->fmt == FMT_SVAL) {
		if (a->hval > s.n - *pos - 4)
			return -1;
		a->val.n = a->hval;
	}
	if (a->fmt == FMT_BVAL)
		a->hval &= 0xff;
	*pos += 4 + a->val.n;
	return 1;
}

/* What is known of each section that is a kernel's .text. */
struct slot {
	int kernel;               /* an .nv.info.X points here */
	const char *name;         /* X */
	int64_t shared;
	uint32_t sym;             /* 0: no symbol yet */
	int entry;                /* the symbol is a kernel's */
	int regs;
	int64_t frame, stack;
	struct occ_bin_kernel k;  /* per-kernel attributes */
};

struct cubin {
	const struct elf *e;
	struct slot *slots;       /* by section index */
	struct span symtab, strtab, info, compat, tkinfo;
	struct occ_bin_kernel base;
};

static int three(const struct nvattr *a, int out[3])
{
	if (a->fmt != FMT_SVAL || a->val.n != 12)
		return -1;
	for (int i = 0; i < 3; i++) {
		uint32_t v = rd32(a->val.p + 4 * i);
		out[i] = v > INT32_MAX ? INT32_MAX : (int)v;
	}
	return 0;
}

/* One attribute of .nv.info.X; -1 when its format is not the expected. */
static int kernel_attr(struct occ_bin_kernel *k, const struct nvattr *a)
{
	switch (a->attr) {
	case ATTR_MAX_THREADS: return three(a, k->max_threads);
	case ATTR_REQNTID: return three(a, k->req_threads);
	case ATTR_CTA_PER_CLUSTER: return three(a, k->cluster);
	case ATTR_MAXREG_COUNT:
		if (a->fmt != FMT_HVAL)
			return -1;
		k->max_regs = (int)a->hval;
		return 0;
	case ATTR_NUM_BARRIERS:
		if (a->fmt != FMT_BVAL)
			return -1;
		k->barriers = (int)a->hval;
		return 0;
	case ATTR_MAX_CLUSTER_RANK:
		if (a->fmt != FMT_SVAL || a->val.n != 4)
			return -1;
		k->max_cluster_rank = (int)(rd32(a->val.p) & INT32_MAX);
		return 0;
	}
	return 0;
}

static enum occ_status read_kernel_info(struct bin_ctx *c, struct span s,
					struct slot *sl)
{
	struct nvattr a;
	size_t pos = 0;
	int r;

	while ((r = nvinfo_next(s, &pos, &a)) > 0)
		if (kernel_attr(&sl->k, &a))
			return bin_fail(c, OCC_ERR_CORRUPT, a.val.p - 4,
					"attribute 0x%02x of a kernel's .nv.info "
					"has an unexpected form", a.attr);
	if (r < 0)
		return bin_fail(c, OCC_ERR_CORRUPT, s.p + pos,
				"a kernel's .nv.info record runs past its "
				"section");
	return OCC_OK;
}

/* The section a symbol is defined in, or 0. */
static uint32_t sym_section(const struct cubin *cb, uint32_t sym)
{
	if ((uint64_t)sym >= cb->symtab.n / 24)
		return 0;
	return rd16(cb->symtab.p + (size_t)sym * 24 + 6);
}

/* The file-wide .nv.info: registers and stack, by symbol. */
static enum occ_status read_global_info(struct bin_ctx *c, struct cubin *cb)
{
	struct nvattr a;
	size_t pos = 0;
	int r;

	while ((r = nvinfo_next(cb->info, &pos, &a)) > 0) {
		uint32_t sec, v;
		struct slot *sl;

		if (a.attr != ATTR_REGCOUNT && a.attr != ATTR_FRAME_SIZE &&
		    a.attr != ATTR_MIN_STACK_SIZE)
			continue;
		if (a.fmt != FMT_SVAL || a.val.n != 8)
			return bin_fail(c, OCC_ERR_CORRUPT, a.val.p - 4,
					".nv.info attribute 0x%02x has an "
					"unexpected form", a.attr);
		sec = sym_section(cb, rd32(a.val.p));
		v = rd32(a.val.p + 4);
		if (sec == 0 || sec >= cb->e->shnum || !cb->slots[sec].kernel)
			continue;          /* a function without .nv.info.X */
		sl = &cb->slots[sec];
		if (a.attr == ATTR_REGCOUNT && v > OCC_MAX_REGS_ANY_ARCH)
			return bin_fail(c, OCC_ERR_CORRUPT, a.val.p,
					"register count %u is above %d", v,
					OCC_MAX_REGS_ANY_ARCH);
		if (a.attr == ATTR_REGCOUNT)
			sl->regs = (int)v;
		else if (a.attr == ATTR_FRAME_SIZE)
			sl->frame = v;
		else
			sl->stack = v;
	}
	if (r < 0)
		return bin_fail(c, OCC_ERR_CORRUPT, cb->info.p + pos,
				".nv.info record runs past its section");
	return OCC_OK;
}

static int has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* A section naming its kernel's .text in sh_info: that index, checked. */
static struct slot *kernel_slot(struct bin_ctx *c, struct cubin *cb,
				const struct elf_shdr *h, enum occ_status *st)
{
	if (h->info == 0 || h->info >= cb->e->shnum) {
		*st = bin_fail(c, OCC_ERR_CORRUPT, cb->e->s.p + cb->e->shoff,
			       "section %s refers to section %u, which does "
			       "not exist", elf_name(cb->e, h), h->info);
		return NULL;
	}
	return &cb->slots[h->info];
}

int cubin_wants_section(const char *name, uint32_t type)
{
	return type == SHT_SYMTAB || strcmp(name, ".nv.info") == 0 ||
	       strcmp(name, ".nv.compat") == 0 ||
	       strcmp(name, ".note.nv.tkinfo") == 0 ||
	       has_prefix(name, ".nv.info.");
}

/* One section: remember what it says about which kernel. */
static enum occ_status scan_section(struct bin_ctx *c, struct cubin *cb,
				    size_t i)
{
	const struct elf *e = cb->e;
	enum occ_status st = OCC_OK;
	struct elf_shdr h;
	struct span d;
	const char *name;
	struct slot *sl;

	elf_shdr(e, i, &h);
	name = elf_name(e, &h);
	if (elf_data(e, &h, &d))
		return bin_fail(c, OCC_ERR_CORRUPT, e->s.p + e->shoff + i * 64,
				"section %zu (%s) lies past the end of the "
				"cubin", i, name);
	if (h.type == SHT_SYMTAB && cb->symtab.n == 0) {
		struct elf_shdr sh;

		if (h.link == 0 || h.link >= e->shnum)
			return bin_fail(c, OCC_ERR_CORRUPT, d.p, "symbol table "
					"names no string table");
		elf_shdr(e, h.link, &sh);
		if (elf_data(e, &sh, &cb->strtab))
			return bin_fail(c, OCC_ERR_CORRUPT, d.p, "string table "
					"lies past the end of the cubin");
		cb->symtab = d;
	} else if (strcmp(name, ".nv.info") == 0) {
		cb->info = d;
	} else if (strcmp(name, ".nv.compat") == 0) {
		cb->compat = d;
	} else if (strcmp(name, ".note.nv.tkinfo") == 0) {
		cb->tkinfo = d;
	} else if (has_prefix(name, ".nv.info.")) {
		if (!(sl = kernel_slot(c, cb, &h, &st)))
			return st;
		sl->kernel = 1;
		sl->name = name + strlen(".nv.info.");
		return read_kernel_info(c, d, sl);
	} else if (has_prefix(name, ".nv.shared.") &&
		   !has_prefix(name, ".nv.shared.reserved.")) {
		if (!(sl = kernel_slot(c, cb, &h, &st)))
			return st;
		sl->shared = (int64_t)(h.size > INT64_MAX ? INT64_MAX : h.size);
	}
	return OCC_OK;
}

/* Each kernel's symbol: the function of its name in its .text section
 * (a device function inlined into the section has a symbol there too). */
static void find_symbols(struct cubin *cb)
{
	size_t n = cb->symtab.n / 24;

	for (size_t i = 1; i < n; i++) {
		const uint8_t *p = cb->symtab.p + i * 24;
		uint32_t sec = rd16(p + 6);
		const char *name;

		if ((p[4] & 15) != STT_FUNC || sec >= cb->e->shnum ||
		    !cb->slots[sec].kernel || cb->slots[sec].sym != 0)
			continue;
		name = elf_str(cb->strtab, rd32(p));
		if (name && strcmp(name, cb->slots[sec].name) == 0) {
			cb->slots[sec].sym = (uint32_t)i;
			cb->slots[sec].entry = (p[5] & STO_ENTRY) != 0;
		}
	}
}

/* The suffix the toolkit note's "-arch sm_NNN?" gives, when NNN is sm. */
static char tkinfo_suffix(struct span s, int sm)
{
	static const char key[] = "-arch sm_";
	size_t k = sizeof key - 1;

	for (size_t i = 0; s.n >= k && i <= s.n - k; i++) {
		size_t j = i + k;
		int v = 0;

		if (memcmp(s.p + i, key, k) != 0)
			continue;
		while (j < s.n && s.p[j] >= '0' && s.p[j] <= '9' && v < 10000)
			v = v * 10 + (s.p[j++] - '0');
		if (v == sm && j < s.n && (s.p[j] == 'a' || s.p[j] == 'f'))
			return (char)s.p[j];
		return 0;
	}
	return 0;
}

/* Whether .nv.compat marks the cubin architecture-specific. */
static int compat_specific(struct span s)
{
	struct nvattr a;
	size_t pos = 0;

	while (nvinfo_next(s, &pos, &a) > 0)
		if (a.attr == COMPAT_ARCH_SPECIFIC && a.fmt == FMT_BVAL)
			return a.hval == 1;
	return 0;
}

/* The target: the SM number from e_flags, where LLVM's
 * BinaryFormat/ELF.h puts it (ELFOSABI_CUDA: EF_CUDA_SM, the low byte, and
 * EF_CUDA_ACCELERATORS_V1 0x800 for "a"; ELFOSABI_CUDA_V2: bits 8-15); the
 * suffix from the toolkit note, .nv.compat or the fatbin entry. */
static enum occ_status cubin_arch(struct bin_ctx *c, struct cubin *cb)
{
	const uint8_t *p = cb->e->s.p;
	uint32_t flags = rd32(p + 0x30);
	int sm, v1 = p[7] == 51;
	char suffix;

	if (!v1 && p[7] != 65)
		return bin_fail(c, OCC_ERR_CORRUPT, p + 7, "CUDA ELF with an "
				"unknown ABI (%u)", p[7]);
	sm = v1 ? (int)(flags & 0xff) : (int)(flags >> 8 & 0xff);
	if (sm < 10)
		return bin_fail(c, OCC_ERR_CORRUPT, p + 0x30, "CUDA ELF flags "
				"0x%x name no architecture", flags);
	suffix = tkinfo_suffix(cb->tkinfo, sm);
	if (!suffix && ((v1 && (flags & 0x800)) || compat_specific(cb->compat) ||
			(c->entry_flags & FLAG_ARCH_SPECIFIC)))
		suffix = 'a';
	if (!suffix && (c->entry_flags & FLAG_FAMILY))
		suffix = 'f';
	cb->base.relocatable = rd16(p + 0x10) == 1;     /* ET_REL */
	cb->base.cc_major = sm / 10;
	cb->base.cc_minor = sm % 10;
	if (suffix)
		snprintf(cb->base.arch, sizeof cb->base.arch, "sm_%d%c", sm,
			 suffix);
	else
		snprintf(cb->base.arch, sizeof cb->base.arch, "sm_%d", sm);
	return OCC_OK;
}

static enum occ_status emit_kernels(struct bin_ctx *c, struct cubin *cb)
{
	enum occ_status st;

	for (size_t i = 0; i < cb->e->shnum; i++) {
		struct slot *sl = &cb->slots[i];
		struct occ_bin_kernel k = cb->base;
		const uint8_t *sym;

		if (!sl->kernel)
			continue;
		if (sl->sym == 0)
			return bin_fail(c, OCC_ERR_CORRUPT, cb->e->s.p,
					"no symbol for the function of section "
					"%zu", i);
		if (!sl->entry)
			continue;          /* a device function */
		sym = cb->symtab.p + (size_t)sl->sym * 24;
		k.mangled = elf_str(cb->strtab, rd32(sym));
		k.regs = sl->regs;
		if (k.regs < 0) {
			/* Before EIATTR_REGCOUNT: the top byte of the .text
			 * section's sh_info (Hayes et al.). */
			struct elf_shdr h;

			elf_shdr(cb->e, i, &h);
			k.regs = (int)(h.info >> 24);
		}
		k.shared_section = sl->shared;
		k.frame = sl->frame;
		k.stack = sl->stack;
		k.barriers = sl->k.barriers;
		memcpy(k.max_threads, sl->k.max_threads, sizeof k.max_threads);
		memcpy(k.req_threads, sl->k.req_threads, sizeof k.req_threads);
		memcpy(k.cluster, sl->k.cluster, sizeof k.cluster);
		k.max_regs = sl->k.max_regs;
		k.max_cluster_rank = sl->k.max_cluster_rank;
		if ((st = bin_emit(c, &k)) != OCC_OK)
			return st;
	}
	return OCC_OK;
}

enum occ_status cubin_read(struct bin_ctx *c, const struct elf *e)
{
	struct cubin cb;
	enum occ_status st = OCC_OK;

	memset(&cb, 0, sizeof cb);
	cb.e = e;
	if (e->shnum == 0)
		return bin_fail(c, OCC_ERR_CORRUPT, e->s.p, "cubin has no "
				"sections");
	cb.slots = calloc(e->shnum, sizeof *cb.slots);
	if (!cb.slots)
		return OCC_ERR_NOMEM;
	for (size_t i = 0; i < e->shnum; i++) {
		cb.slots[i].regs = -1;
		cb.slots[i].frame = cb.slots[i].stack = -1;
	}
	for (size_t i = 0; i < e->shnum && st == OCC_OK; i++)
		st = scan_section(c, &cb, i);
	if (st == OCC_OK) {
		bin_kernel_init(&cb.base);
		find_symbols(&cb);
		st = read_global_info(c, &cb);
	}
	if (st == OCC_OK && (st = cubin_arch(c, &cb)) == OCC_OK)
		st = emit_kernels(c, &cb);
	free(cb.slots);
	return st;
}
