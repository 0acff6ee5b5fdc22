/*
 * usage.c - reading the resource usage the CUDA toolchain reports for its
 * kernels, from 'nvcc -Xptxas -v' (ptxas) or 'cuobjdump
 * --dump-resource-usage'. The two formats are told apart line by line, so
 * one input may hold both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "util.h"

struct parser {
	struct occ_usage u;
	int pending;          /* an entry's usage line is still to come */
	int pending_line;
	int kernels;
	int lineno;
	const char *name;
	struct occ_diag *diag;
};

static void start_kernel(struct parser *p, const char *name, size_t len)
{
	int major = p->u.cc_major, minor = p->u.cc_minor;
	char arch[sizeof p->u.arch];

	memcpy(arch, p->u.arch, sizeof arch);
	memset(&p->u, 0, sizeof p->u);
	p->u.cc_major = major;
	p->u.cc_minor = minor;
	memcpy(p->u.arch, arch, sizeof arch);
	p->u.barriers = -1;
	if (len >= sizeof p->u.mangled)
		len = sizeof p->u.mangled - 1;
	memcpy(p->u.mangled, name, len);
	p->u.mangled[len] = '\0';
	p->pending = 1;
	p->pending_line = p->lineno;
}

/* The target's name, suffix kept; "sm_90" for "90" or "9.0". */
static void target(struct parser *p, const char *arch)
{
	if (strncmp(arch, "sm_", 3) == 0 && strlen(arch) < sizeof p->u.arch)
		memcpy(p->u.arch, arch, strlen(arch) + 1);
	else
		snprintf(p->u.arch, sizeof p->u.arch, "sm_%d%d", p->u.cc_major,
			 p->u.cc_minor);
}

/* The decimal number s starts with; 0 if it starts with none. */
static int number_at(const char *s, uint64_t *v)
{
	if (*s < '0' || *s > '9')
		return 0;
	*v = strtoull(s, NULL, 10);
	return 1;
}

/* ptxas: "Compiling entry function 'NAME' for 'sm_90'" */
static int ptxas_entry(struct parser *p, const char *line)
{
	const char *s = strstr(line, "Compiling entry function '"), *name, *q;
	int major, minor;
	char arch[32];

	if (!s)
		return 0;
	name = s + strlen("Compiling entry function '");
	q = strchr(name, '\'');
	if (!q)
		return -1;
	s = strstr(q, " for '");
	if (!s || sscanf(s, " for '%31[^']'", arch) != 1 ||
	    occ_arch_parse_name(arch, &major, &minor) != OCC_OK)
		return -1;
	p->u.cc_major = major;
	p->u.cc_minor = minor;
	target(p, arch);
	start_kernel(p, name, (size_t)(q - name));
	return 1;
}

/* ptxas: "    400 bytes stack frame, 480 bytes spill stores, ..." */
static int ptxas_frame(struct parser *p, const char *line)
{
	unsigned long long stack, st, ld;

	if (!strstr(line, "bytes stack frame"))
		return 0;
	if (sscanf(line, " %llu bytes stack frame, %llu bytes spill stores, "
		   "%llu bytes spill loads", &stack, &st, &ld) != 3)
		return -1;
	if (p->pending) {
		p->u.stack = stack;
		p->u.spill_stores = st;
		p->u.spill_loads = ld;
	}
	return 1;
}

/* ptxas: "Used 40 registers, used 1 barriers, 4096 bytes smem, ..." */
static int ptxas_used(struct parser *p, const char *line)
{
	const char *s = strstr(line, "Used "), *item, *space;
	uint64_t v;
	int regs = 0;

	if (!s || !strstr(s, " registers"))
		return 0;
	if (!p->pending)
		return 1;  /* a device function's report */
	for (item = s; item; item = strchr(item, ',')) {
		while (*item == ',' || *item == ' ')
			item++;
		if (strncmp(item, "Used ", 5) == 0 && number_at(item + 5, &v) &&
		    strstr(item, " registers") == strchr(item + 5, ' ')) {
			p->u.regs = (int)v;
			regs = 1;
		} else if (strncmp(item, "used ", 5) == 0 &&
			   number_at(item + 5, &v)) {
			p->u.barriers = (int)v;
		} else if (number_at(item, &v) &&
			   (space = strchr(item, ' ')) != NULL &&
			   strncmp(space, " bytes smem", 11) == 0) {
			p->u.static_smem = v;
		}
	}
	return regs && p->u.regs <= 1024 ? 2 : -1;
}

/* cuobjdump: "arch = sm_90" */
static int cuobjdump_arch(struct parser *p, const char *line)
{
	char arch[32];

	if (sscanf(line, " arch = %31s", arch) != 1)
		return 0;
	if (occ_arch_parse_name(arch, &p->u.cc_major, &p->u.cc_minor) != OCC_OK)
		return -1;
	target(p, arch);
	return 1;
}

/* cuobjdump: " Function NAME:" */
static int cuobjdump_function(struct parser *p, const char *line)
{
	const char *s = line;
	size_t len;

	while (*s == ' ' || *s == '\t')
		s++;
	if (strncmp(s, "Function ", 9) != 0)
		return 0;
	s += 9;
	len = strlen(s);
	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
		len--;
	if (len < 2 || s[len - 1] != ':')
		return -1;
	start_kernel(p, s, len - 1);
	return 1;
}

/* cuobjdump: "  REG:40 STACK:0 SHARED:4096 LOCAL:0 CONSTANT[0]:368 ..." */
static int cuobjdump_usage(struct parser *p, const char *line)
{
	unsigned long long reg, stack, shared;

	if (!strstr(line, "REG:"))
		return 0;
	if (!p->pending ||
	    sscanf(line, " REG:%llu STACK:%llu SHARED:%llu", &reg, &stack,
		   &shared) != 3 || reg > 1024)
		return -1;
	p->u.regs = (int)reg;
	p->u.stack = stack;
	p->u.static_smem = shared;
	p->u.from_cuobjdump = 1;
	return 2;
}

typedef int (*line_fn)(struct parser *p, const char *line);

static const line_fn recognisers[] = {
	ptxas_entry, ptxas_frame, ptxas_used, cuobjdump_arch,
	cuobjdump_function, cuobjdump_usage,
};

static enum occ_status syntax(struct parser *p, int line)
{
	occ_diag_set(p->diag, p->name, line, "");
	return OCC_ERR_SYNTAX;
}

enum occ_status occ_usage_parse(FILE *f, const char *name, occ_usage_fn fn,
				void *ctx, int *fn_status,
				struct occ_diag *diag)
{
	struct parser p;
	char line[8192];
	size_t i;

	memset(&p, 0, sizeof p);
	p.name = name;
	p.diag = diag;
	*fn_status = 0;
	while (fgets(line, sizeof line, f)) {
		p.lineno++;
		if (!strchr(line, '\n') && !feof(f))
			return syntax(&p, p.lineno);
		for (i = 0; i < sizeof recognisers / sizeof recognisers[0]; i++) {
			int r = recognisers[i](&p, line);

			if (r == 0)
				continue;
			if (r < 0)
				return syntax(&p, p.lineno);
			if (r == 2) {
				p.u.line = p.lineno;
				p.pending = 0;
				p.kernels++;
				*fn_status = fn(&p.u, ctx);
				if (*fn_status)
					return OCC_OK;
			}
			break;
		}
	}
	if (ferror(f)) {
		occ_diag_set(diag, name, p.lineno, "");
		return OCC_ERR_IO;
	}
	if (p.pending)  /* truncated: the kernel's usage never came */
		return syntax(&p, p.pending_line);
	if (p.kernels == 0)
		return syntax(&p, 0);
	return OCC_OK;
}
