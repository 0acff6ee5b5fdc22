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

/* Registers per thread a report may give: beyond any GPU's 255, so that
 * the model, not the reader, says a kernel has too many. */
#define MAX_REPORT_REGS 1024

struct parser {
	struct occ_usage u;
	int pending;          /* an entry's usage line is still to come */
	int pending_line;
	int kernels;
	int lineno;
	const char *name;
	struct occ_diag *diag;
	const char *bad_key;  /* the figure out of range, and its limit */
	uint64_t bad_limit;
};

/* Recognisers return 0 (not mine), 1 (read), DONE (a kernel's report is
 * complete), SYNTAX or RANGE (p->bad_key, p->bad_limit). */
enum { SYNTAX = -1, RANGE = -2, DONE = 2 };

static int range(struct parser *p, const char *key, uint64_t limit)
{
	p->bad_key = key;
	p->bad_limit = limit;
	return RANGE;
}

/* A figure: decimal digits (no sign) at *s, at most max; *s moves past. */
static int figure(struct parser *p, const char **s, const char *key,
		  uint64_t max, uint64_t *v)
{
	switch (occ_parse_u64(*s, v, s)) {
	case OCC_PARSE_SYNTAX:
	case OCC_PARSE_FRACTION:   /* not returned by occ_parse_u64 */
		return SYNTAX;
	case OCC_PARSE_RANGE:
		return range(p, key, max);
	case OCC_PARSE_OK:
		break;
	}
	return *v > max ? range(p, key, max) : 0;
}

/* The literal text lit at *s; *s moves past it. */
static int literal(const char **s, const char *lit)
{
	size_t n = strlen(lit);

	if (strncmp(*s, lit, n) != 0)
		return SYNTAX;
	*s += n;
	return 0;
}

static int start_kernel(struct parser *p, const char *name, size_t len)
{
	int major = p->u.cc_major, minor = p->u.cc_minor;
	char arch[sizeof p->u.arch];

	if (len >= sizeof p->u.mangled)
		return range(p, "kernel name length", sizeof p->u.mangled - 1);
	/* The kernel before has had no usage line: a report cut short
	 * there, named at that kernel's line rather than dropped. */
	if (p->pending) {
		p->lineno = p->pending_line;
		return SYNTAX;
	}
	memcpy(arch, p->u.arch, sizeof arch);
	memset(&p->u, 0, sizeof p->u);
	p->u.cc_major = major;
	p->u.cc_minor = minor;
	memcpy(p->u.arch, arch, sizeof arch);
	p->u.barriers = -1;
	memcpy(p->u.mangled, name, len);
	p->u.mangled[len] = '\0';
	p->pending = 1;
	p->pending_line = p->lineno;
	return 1;
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
	return start_kernel(p, name, (size_t)(q - name));
}

/* ptxas: "    400 bytes stack frame, 480 bytes spill stores, ..." */
static int ptxas_frame(struct parser *p, const char *line)
{
	static const struct { const char *key, *text; } part[] = {
		{ "stack frame", " bytes stack frame, " },
		{ "spill stores", " bytes spill stores, " },
		{ "spill loads", " bytes spill loads" },
	};
	uint64_t v[3];
	const char *s = line;
	size_t i;
	int r;

	if (!strstr(line, "bytes stack frame"))
		return 0;
	while (*s == ' ' || *s == '\t')
		s++;
	for (i = 0; i < 3; i++)
		if ((r = figure(p, &s, part[i].key, UINT64_MAX, &v[i])) != 0 ||
		    (r = literal(&s, part[i].text)) != 0)
			return r;
	if (p->pending) {
		p->u.stack = v[0];
		p->u.spill_stores = v[1];
		p->u.spill_loads = v[2];
	}
	return 1;
}

/* One item of a ptxas usage line: "Used 40 registers", "used 1 barriers",
 * "4096 bytes smem"; others ("368 bytes cmem[0]") say nothing we use. */
static int ptxas_item(struct parser *p, const char *item, unsigned *seen)
{
	static const struct { const char *prefix, *suffix, *key;
			      uint64_t max; unsigned bit; } fig[] = {
		{ "Used ", " registers", "registers", MAX_REPORT_REGS, 1 },
		{ "used ", " barriers", "barriers",
		  OCC_MAX_BARRIERS_PER_BLOCK, 2 },
		{ "", " bytes smem", "shared memory", OCC_BYTES_MAX, 4 },
	};
	size_t i, n = strlen(item);
	uint64_t v;
	const char *s;
	int r;

	for (i = 0; i < sizeof fig / sizeof fig[0]; i++) {
		size_t ns = strlen(fig[i].suffix);

		if (n < ns || strcmp(item + n - ns, fig[i].suffix) != 0)
			continue;
		s = item;
		if ((r = literal(&s, fig[i].prefix)) != 0 ||
		    (r = figure(p, &s, fig[i].key, fig[i].max, &v)) != 0)
			return r;
		if (s != item + n - ns || (*seen & fig[i].bit))
			return SYNTAX;  /* "Used 4 0 registers", given twice */
		*seen |= fig[i].bit;
		if (fig[i].bit == 1)
			p->u.regs = (int)v;
		else if (fig[i].bit == 2)
			p->u.barriers = (int)v;
		else
			p->u.static_smem = v;
		return 0;
	}
	return 0;
}

/* ptxas: "Used 40 registers, used 1 barriers, 4096 bytes smem, ..." */
static int ptxas_used(struct parser *p, const char *line)
{
	const char *s = strstr(line, "Used ");
	char item[256];
	unsigned seen = 0;
	size_t n;
	int r;

	if (!s || !strstr(s, " registers"))
		return 0;
	if (!p->pending)
		return 1;  /* a device function's report */
	while (*s) {
		n = strcspn(s, ",");
		if (n >= sizeof item)
			return SYNTAX;
		memcpy(item, s, n);
		item[n] = '\0';
		if ((r = ptxas_item(p, occ_trim(item), &seen)) != 0)
			return r;
		s += n + (s[n] == ',');
	}
	return seen & 1 ? DONE : SYNTAX;
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
	/* A kernel before any "arch =" is compiled for nothing known. */
	if (len < 2 || s[len - 1] != ':' || p->u.cc_major == 0)
		return SYNTAX;
	return start_kernel(p, s, len - 1);
}

/* cuobjdump: "  REG:40 STACK:0 SHARED:4096 LOCAL:0 CONSTANT[0]:368 ..." */
static int cuobjdump_usage(struct parser *p, const char *line)
{
	uint64_t reg, stack, shared;
	const char *s = line;
	int r;

	if (!strstr(line, "REG:"))
		return 0;
	if (!p->pending)
		return SYNTAX;
	while (*s == ' ' || *s == '\t')
		s++;
	if ((r = literal(&s, "REG:")) != 0 ||
	    (r = figure(p, &s, "registers", MAX_REPORT_REGS, &reg)) != 0 ||
	    (r = literal(&s, " STACK:")) != 0 ||
	    (r = figure(p, &s, "stack frame", UINT64_MAX, &stack)) != 0 ||
	    (r = literal(&s, " SHARED:")) != 0 ||
	    (r = figure(p, &s, "shared memory", OCC_BYTES_MAX, &shared)) != 0)
		return r;
	if (*s != ' ' && *s != '\0')
		return SYNTAX;
	p->u.regs = (int)reg;
	p->u.stack = stack;
	p->u.static_smem = shared;
	p->u.from_cuobjdump = 1;
	return DONE;
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

/* Offers the line to each recogniser; a kernel complete goes to fn. */
static enum occ_status parse_line(struct parser *p, const char *line,
				  occ_usage_fn fn, void *ctx, int *fn_status)
{
	size_t i;

	for (i = 0; i < sizeof recognisers / sizeof recognisers[0]; i++) {
		int r = recognisers[i](p, line);

		if (r == 0)
			continue;
		if (r == SYNTAX)
			return syntax(p, p->lineno);
		if (r == RANGE) {
			occ_diag_set(p->diag, p->name, p->lineno, p->bad_key);
			if (p->diag)
				p->diag->limit = p->bad_limit;
			return OCC_ERR_RANGE;
		}
		if (r == DONE) {
			p->u.line = p->lineno;
			p->pending = 0;
			p->kernels++;
			*fn_status = fn(&p->u, ctx);
		}
		break;
	}
	return OCC_OK;
}

#define LINE_MAX_CHARS 8192

enum occ_status occ_usage_parse(FILE *f, const char *name, occ_usage_fn fn,
				void *ctx, int *fn_status,
				struct occ_diag *diag)
{
	struct parser p;
	struct occ_lines in;
	char buf[LINE_MAX_CHARS], *line;
	enum occ_status st;

	memset(&p, 0, sizeof p);
	p.name = name;
	p.diag = diag;
	*fn_status = 0;
	occ_lines_init(&in, f, buf, sizeof buf);
	while ((st = occ_lines_next(&in, &line)) == OCC_OK && line) {
		p.lineno = in.lineno;
		/* CRLF files, and trailing blanks, change nothing. */
		occ_trim_end(line);
		st = parse_line(&p, line, fn, ctx, fn_status);
		if (st != OCC_OK || *fn_status)
			return st;
	}
	if (st != OCC_OK) {
		occ_diag_set(diag, name, in.lineno, "");
		if (diag && st == OCC_ERR_LINE_TOO_LONG)
			diag->limit = sizeof buf - 1;
		return st;
	}
	if (p.pending)  /* truncated: the kernel's usage never came */
		return syntax(&p, p.pending_line);
	if (p.kernels == 0)
		return syntax(&p, 0);
	return OCC_OK;
}

enum occ_status occ_usage_parse_file(const char *path, occ_usage_fn fn,
				     void *ctx, int *fn_status,
				     struct occ_diag *diag)
{
	FILE *f;
	enum occ_status st = occ_open_regular(path, &f);

	*fn_status = 0;
	if (st != OCC_OK) {
		occ_diag_set(diag, path, 0, "");
		return st;
	}
	st = occ_usage_parse(f, path, fn, ctx, fn_status, diag);
	fclose(f);
	return st;
}
