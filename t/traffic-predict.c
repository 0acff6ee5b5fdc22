/*
 * traffic-predict.c - the traffic model's figures for one described
 * launch, as CSV, for t/gpu/traffic.py until occcalc has the mode. Its
 * options are the ones proposed for occcalc:
 *
 *   traffic-predict --arch sm_90 --traffic 'z[i] = x[i] + y[i]'
 *       (--grid G --block B | --threads N) [--elem [NAME=]SIZE]...
 *       [--active LANES] [--l1 default|ca|cg]
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"

struct opts {
	const char *arch, *text;
	uint64_t grid, block, threads;
	const char *elems[16];
	int n_elems, active;
	enum occ_l1_policy l1;
};

static void die(const char *what, const char *arg)
{
	fprintf(stderr, "traffic-predict: %s%s%s\n", what, arg ? ": " : "",
		arg ? arg : "");
	exit(2);
}

static uint64_t number(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-')
		die("not a count", s);
	return (uint64_t)v;
}

static void parse(int argc, char **argv, struct opts *o)
{
	int i;

	for (i = 1; i + 1 < argc; i += 2) {
		const char *k = argv[i], *v = argv[i + 1];

		if (!strcmp(k, "--arch")) o->arch = v;
		else if (!strcmp(k, "--traffic")) o->text = v;
		else if (!strcmp(k, "--grid")) o->grid = number(v);
		else if (!strcmp(k, "--block")) o->block = number(v);
		else if (!strcmp(k, "--threads")) o->threads = number(v);
		else if (!strcmp(k, "--active")) o->active = (int)number(v);
		else if (!strcmp(k, "--elem") && o->n_elems < 16)
			o->elems[o->n_elems++] = v;
		else if (!strcmp(k, "--l1"))
			o->l1 = !strcmp(v, "ca") ? OCC_L1_CACHE :
				!strcmp(v, "cg") ? OCC_L1_BYPASS : OCC_L1_DEFAULT;
		else
			die("unknown option", k);
	}
	if (i != argc || !o->arch || !o->text)
		die("usage: --arch ARCH --traffic TEXT (--grid G --block B | "
		    "--threads N) [--elem [NAME=]SIZE] [--active N] [--l1 P]",
		    NULL);
}

static void describe(struct occ_kernel_text *k, const struct opts *o)
{
	size_t where, i;
	int e;

	if (occ_kernel_parse(o->text, k, &where) != OCC_OK)
		die("the access list does not parse", o->text + where);
	for (e = 0; e < o->n_elems; e++) {
		char name[64];
		const char *eq = strchr(o->elems[e], '=');

		if (!eq) {
			for (i = 0; i < k->n; i++)
				k->acc[i].access.elem_size =
					(int)number(o->elems[e]);
			continue;
		}
		snprintf(name, sizeof name, "%.*s", (int)(eq - o->elems[e]),
			 o->elems[e]);
		if (!occ_kernel_set_elem(k, name, (int)number(eq + 1)))
			die("no such array", name);
	}
	for (i = 0; i < k->n && o->active; i++)
		k->acc[i].access.threads = o->active;
}

static void row(const char *arch, const struct occ_traffic *t)
{
	const struct occ_traffic_ops *l = &t->load, *s = &t->store;
	uint64_t sec = (uint64_t)t->sector_size;

	printf("arch,threads,warps,ld_instructions,st_instructions,"
	       "ld_requests,st_requests,ld_sectors,st_sectors,ld_lines,"
	       "st_lines,ld_requested_bytes,st_requested_bytes,"
	       "l2_read_sectors_min,l2_read_sectors_max,l2_write_sectors_min,"
	       "l2_write_sectors_max,"
	       "dram_read_bytes_min,dram_read_bytes_max,dram_write_bytes_min,"
	       "dram_write_bytes_max,footprint_bytes\n");
	printf("%s,%" PRIu64 ",%" PRIu64, arch, t->threads, t->warps);
	printf(",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, l->instructions,
	       s->instructions, l->requests, s->requests);
	printf(",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, l->sectors,
	       s->sectors, l->lines, s->lines);
	printf(",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
	       ",%" PRIu64, l->requested, s->requested, l->l2_min, l->l2_max,
	       s->l2_min, s->l2_max);
	printf(",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
	       l->distinct * sec, l->l2_max * sec, s->distinct * sec,
	       s->l2_max * sec, t->footprint * sec);
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct occ_kernel_text k;
	struct occ_launch l;
	struct occ_traffic t;
	struct occ_arch a;
	struct occ_diag d;
	char path[600];
	const char *dir = getenv("OCCCALC_TABLES");
	int major, minor;

	parse(argc, argv, &o);
	if (occ_arch_parse_name(o.arch, &major, &minor) != OCC_OK)
		die("not an architecture", o.arch);
	snprintf(path, sizeof path, "%s/sm_%d%d.arch", dir ? dir : ".", major,
		 minor);
	if (occ_arch_load(path, &a, &d) != OCC_OK)
		die("cannot read", path);
	describe(&k, &o);
	l.grid = o.threads ? 1 : o.grid;
	l.block = o.threads ? o.threads : o.block;
	l.l1 = o.l1;
	if (occ_traffic_compute(&a, &l, k.acc, k.n, &t) != OCC_OK)
		die("the launch is refused", occ_strerror(OCC_ERR_INVALID_INPUT));
	row(o.arch, &t);
	return 0;
}
