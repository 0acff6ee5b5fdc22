/* elf.h - the ELF section table, for cubins and host files (internal). */
#ifndef OCC_ELF_H
#define OCC_ELF_H

#include "bin.h"

struct elf {
	struct span s;
	unsigned machine;
	uint64_t shoff;
	size_t shnum;
	struct span shstr;
};

struct elf_shdr {
	uint32_t name, type, link, info;
	uint64_t flags, offset, size, entsize;
};

enum occ_status elf_open(struct bin_ctx *c, struct span s, struct elf *e);
void elf_shdr(const struct elf *e, size_t i, struct elf_shdr *h);
int elf_data(const struct elf *e, const struct elf_shdr *h, struct span *out);
const char *elf_str(struct span tab, uint64_t off);
const char *elf_name(const struct elf *e, const struct elf_shdr *h);

/* Whether the cubin reader reads a section's bytes (cubin.c): what a
 * sparse image must hold. */
int cubin_wants_section(const char *name, uint32_t type);

/* A CUDA ELF's kernels (cubin.c). */
enum occ_status cubin_read(struct bin_ctx *c, const struct elf *e);

#endif
