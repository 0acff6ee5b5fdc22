/*
 * launches_summary_print.c - --launches' text summary printed: the rows
 * (kernels, or operators with --by op, each on its GPU) ranked by GPU
 * time, then the headroom of the top ones.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "launches_sum.h"
#include "occupancy.h"

static void set_name(char *buf, size_t n, unsigned set)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < N_LIMITERS; i++)
		if (set & (1u << i))
			len += (size_t)snprintf(buf + len, len < n ? n - len : 0,
						"%s%s", len ? "+" : "",
						occ_resource_name(limiters[i]));
	if (!set)
		snprintf(buf, n, "cannot launch");
}

/* ---- Printing ---- */

/* By time where the traces timed launches, else by launch. */
static const struct acc *weights(const struct launch_summary *s,
				 const struct ksum *k)
{
	if (s->t.all > 0)
		return k ? &k->t : &s->t;
	return k ? &k->n : &s->n_acc;
}

static int by_rank(const void *x, const void *y)
{
	const struct ksum *a = *(const struct ksum *const *)x;
	const struct ksum *b = *(const struct ksum *const *)y;

	if (a->rank != b->rank)
		return a->rank > b->rank ? -1 : 1;
	return strcmp(a->name, b->name);
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100 * part / whole : 0;
}

#define N_SETS (1 << N_LIMITERS)

/* What limits the kernel, by its time: the two sets of limiters that
 * hold the most, with their shares ("registers", "shared_memory 60%,
 * warps+registers 40%"). */
static void limiter_mix(char *buf, size_t n, const struct acc *a)
{
	unsigned first = 0, second = N_SETS, set;
	char name[96];
	size_t len;

	for (set = 1; set < N_SETS; set++)
		if (a->lim[set] > a->lim[first])
			first = set;
	for (set = 0; set < N_SETS; set++)
		if (set != first && a->lim[set] > 0 &&
		    (second == N_SETS || a->lim[set] > a->lim[second]))
			second = set;
	if (a->modelled <= 0) {
		snprintf(buf, n, "-");
		return;
	}
	set_name(name, sizeof name, first);
	if (a->lim[first] >= a->modelled) {
		snprintf(buf, n, "%s", name);
		return;
	}
	len = (size_t)snprintf(buf, n, "%s %.0f%%", name,
			       pct(a->lim[first], a->modelled));
	if (second < N_SETS) {
		set_name(name, sizeof name, second);
		snprintf(buf + len, len < n ? n - len : 0, ", %s %.0f%%", name,
			 pct(a->lim[second], a->modelled));
	}
}

/* A name cell: the name escaped (escape_text) and padded to width
 * columns (a name may hold UTF-8: '…'). */
static void name_put(FILE *f, const char *name, size_t width)
{
	char e[4 * NAME_KEPT + 8];
	size_t cols;

	escape_text(e, sizeof e, name);
	cols = name_columns(e);
	fprintf(f, "%s%*s", e, (int)(width > cols ? width - cols : 0), "");
}

static int any_kineto(const struct launch_summary *s)
{
	return weights(s, NULL)->kineto_w > 0;
}

static int any_achieved(const struct launch_summary *s)
{
	return weights(s, NULL)->achieved_w > 0;
}

/* The achieved occupancy of the kernel's measured launches, and their
 * occupancy in brackets: shown for the first top kernels (0: all). */
static void achieved_cell(char *buf, size_t n, const struct acc *a,
			  int shown)
{
	if (shown && a->achieved_w > 0)
		snprintf(buf, n, "%.2f%% (%.2f%%)", a->achieved / a->achieved_w,
			 a->achieved_occ / a->achieved_w);
	else
		snprintf(buf, n, "-");
}

static void kernel_line(FILE *f, const struct launch_summary *s,
			const struct ksum *k, const char *name, size_t width,
			int achieved_shown)
{
	const struct acc *a = weights(s, k), *all = weights(s, NULL);
	char mix[256], occ[16], kin[16], ach[40];
	char shapes[24];

	name_put(f, name, width);
	snprintf(shapes, sizeof shapes, "%zu%s", k->n_shapes,
		 k->shapes_capped ? "+" : "");
	limiter_mix(mix, sizeof mix, a);
	if (a->modelled > 0)
		snprintf(occ, sizeof occ, "%.2f%%", a->occ / a->modelled);
	else
		snprintf(occ, sizeof occ, "-");
	fprintf(f, " %3d %8" PRIu64 " %6s %10.3f %6.1f%% %9s %5.1f%% %5.1f%% "
		"%5.1f%%", k->device, k->launches, shapes,
		k->t.all / 1e6, pct(a->all, all->all), occ,
		pct(a->below25, a->modelled), pct(a->below50, a->modelled),
		pct(a->tail, a->modelled));
	if (any_kineto(s)) {
		if (a->kineto_w > 0)
			snprintf(kin, sizeof kin, "%.2f%%", a->kineto / a->kineto_w);
		else
			snprintf(kin, sizeof kin, "-");
		fprintf(f, " %8s", kin);
	}
	if (any_achieved(s)) {
		achieved_cell(ach, sizeof ach, a, achieved_shown);
		fprintf(f, " %17s", ach);
	}
	fprintf(f, "  %s\n", mix);
}

/* "; in a partition: ..." after a device computed in a part of it. */
static void part_note(FILE *f, const struct occ_launch_dev *d)
{
	const struct occ_partition_split *p = &d->part.split;
	char l[64];

	fprintf(f, "  in a partition: %s of %s%d group%s of %d SMs", d->part_name,
		p->groups_min == p->groups_max ? "" : "at most ", p->groups,
		plural(p->groups), p->group_sms);
	if (p->groups_min == p->groups_max)
		fprintf(f, ", %d left over", p->remaining_sms);
	fprintf(f, " (flags: %s): %d SMs", occ_partition_flags_name(d->part.flags),
		d->part.sms);
	if (d->part.measured) {
		occ_layout_format(&d->part.layout, l, sizeof l);
		fprintf(f, ", GPCs %s\n", l);
	} else {
		fprintf(f, ", GPCs not measured (no cluster figures)\n");
	}
}

static void header(FILE *f, const struct launch_summary *s, size_t width)
{
	char dev[sizeof s->devs[0]->d.name * 4];
	size_t i;

	fprintf(f, "%" PRIu64 " launch%s of %zu %s%s in %zu file%s, "
		"%.3f ms of GPU time\n", s->launches,
		s->launches == 1 ? "" : "es", s->n, s->by_op ? "op" : "kernel",
		plural((long long)s->n),
		s->n_files, plural((long long)s->n_files), s->t.all / 1e6);
	for (i = 0; i < s->n_devs; i++) {
		escape_text(dev, sizeof dev, s->devs[i]->d.name);
		fprintf(f, "  %s: %s, %d SMs%s\n", dev, s->devs[i]->tag,
			s->devs[i]->d.multiProcessorCount,
			launches_named_note(s->devs[i]));
		if (s->devs[i]->in_part)
			part_note(f, s->devs[i]);
	}
	if (s->t.all <= 0 && s->launches)
		fprintf(f, "No launch has a duration: shares are of launches, "
			"not of time.\n");
	fprintf(f, "\n");
	name_put(f, s->by_op ? "op" : "kernel", width);
	fprintf(f, " %3s %8s %6s %10s %7s %9s %6s %6s %6s", "gpu", "launches", "shapes", "GPU ms", "time", "occupancy",
		"<25%", "<50%", "tail");
	if (any_kineto(s))
		fprintf(f, " %8s", "kineto");
	if (any_achieved(s))
		fprintf(f, " %17s", "achieved");
	fprintf(f, "  limiter\n");
}

static const struct config *heaviest(const struct ksum *k)
{
	const struct config *best = NULL;
	size_t i;

	for (i = 0; i < k->n_configs; i++)
		if (!best || k->configs[i].weight > best->weight)
			best = &k->configs[i];
	return best;
}

#define TOP 5

static void headroom_of(FILE *f, const struct ksum *k, const char *name)
{
	const struct config *c = heaviest(k);
	const struct occ_launch_record *l;
	struct occ_headroom h;

	if (!c || occ_launch_headroom(&c->dev->arch, &c->l, &h) != OCC_OK)
		return;
	l = &c->l;
	fprintf(f, "\n");
	name_put(f, name, 0);
	fprintf(f, " (gpu %d): %s, block %" PRId64 "x%" PRId64 "x%" PRId64 ", %d "
		"registers, ", k->device, c->dev->tag, l->block[0], l->block[1],
		l->block[2], l->regs);
	if (l->static_smem >= 0)
		fprintf(f, "%" PRId64 " B static + %" PRId64 " B dynamic shared "
			"memory", l->static_smem, l->dynamic_smem);
	else
		fprintf(f, "%" PRId64 " B shared memory (taken as dynamic)",
			l->smem_total);
	fprintf(f, ": %d block%s per SM\n", c->r.blocks_per_sm,
		plural(c->r.blocks_per_sm));
	report_headroom_steps(f, &c->r, &h);
}

/* The terminal's columns where f is one; 0 else. */
static size_t terminal_columns(FILE *f)
{
	struct winsize ws;

	if (!isatty(fileno(f)) || ioctl(fileno(f), TIOCGWINSZ, &ws) != 0)
		return 0;
	return ws.ws_col;
}

/* The columns of a line besides the name. */
#define LINE_REST 110

/* The rows' names as shown: kernels' shortened (names_shorten), unless
 * --wide or a terminal wide enough for the whole; and the column width. */
static char **names_of(FILE *f, const struct launch_summary *s,
		       struct ksum *const *order, size_t *width)
{
	const char **full = malloc((s->n ? s->n : 1) * sizeof *full);
	char **shown = calloc(s->n ? s->n : 1, sizeof *shown);
	char e[4 * NAME_KEPT + 8];
	size_t i, cols, widest = 0;
	int whole = s->wide || s->by_op;

	if (!full || !shown)
		die("out of memory for the summary of %zu kernels", s->n);
	for (i = 0; i < s->n; i++) {
		full[i] = order[i]->name;
		escape_text(e, sizeof e, full[i]);
		cols = name_columns(e);
		widest = cols > widest ? cols : widest;
	}
	if (!whole && terminal_columns(f) >= widest + LINE_REST)
		whole = 1;
	if (whole) {
		for (i = 0; i < s->n; i++)
			if (!(shown[i] = strdup(full[i])))
				die("out of memory for the summary");
	} else if (!names_shorten(full, s->n, shown)) {
		die("out of memory for the summary of %zu kernels", s->n);
	}
	free(full);
	*width = strlen(s->by_op ? "op" : "kernel");
	for (i = 0; i < s->n; i++) {
		escape_text(e, sizeof e, shown[i]);
		cols = name_columns(e);
		*width = cols > *width ? cols : *width;
	}
	return shown;
}

void launch_summary_print(FILE *f, struct launch_summary *s,
			  size_t achieved_top)
{
	struct ksum **order;
	char **shown;
	size_t i, j = 0, top = 0, width;

	if (s->failed)
		die("out of memory for the summary of %zu kernels", s->n);
	order = malloc((s->n ? s->n : 1) * sizeof *order);
	if (!order)
		die("out of memory for the summary of %zu kernels", s->n);
	for (i = 0; i < s->cap; i++)
		if (s->slots[i]) {
			order[j] = s->slots[i];
			order[j]->rank = weights(s, order[j])->all;
			j++;
		}
	qsort(order, s->n, sizeof *order, by_rank);
	shown = names_of(f, s, order, &width);
	header(f, s, width);
	for (i = 0; i < s->n; i++)
		kernel_line(f, s, order[i], shown[i], width,
			    !achieved_top || i < achieved_top);
	if (s->t.all > 0)
		fprintf(f, "\noccupancy: weighted by GPU time; <25%%, <50%%: "
			"the kernel's time in launches below\nthat occupancy; "
			"tail: its time in partial last waves (the waves taken "
			"as equally long).\n");
	else
		fprintf(f, "\noccupancy: weighted by launch; <25%%, <50%%: the "
			"kernel's launches below that\noccupancy; tail: the "
			"share of its launches' waves that are partial last "
			"ones.\n");
	if (any_kineto(s))
		fprintf(f, "kineto: Kineto's 'est. achieved occupancy %%', "
			"weighted alike.\n");
	if (any_achieved(s))
		fprintf(f, "achieved: measured (sm__warps_active.avg.pct_of_peak_"
			"sustained_active) in the\nlaunches --achieved measured, "
			"weighted alike; in brackets the occupancy of\nthe same "
			"launches.%s\n", achieved_top ? " Shown for the kernels "
			"with the most GPU time." : "");
	if (s->untracked)
		fprintf(f, "\n%" PRIu64 " launch%s of kernels past the first "
			"%d are in the totals, not listed\n(the summary holds "
			"at most %d kernels: -f csv gives every launch).\n",
			s->untracked, s->untracked == 1 ? "" : "es",
			SUMMARY_KERNELS, SUMMARY_KERNELS);
	if (s->n_shapes == SHAPES_MAX)
		fprintf(f, "\nshapes: counted up to %u for all kernels "
			"together; N+: more, not counted.\n", SHAPES_MAX);
	if (s->modelled < s->launches)
		fprintf(f, "\n%" PRIu64 " launch%s without occupancy figures "
			"(why: on standard error) count in the time, not in the "
			"percentages.\n", s->launches - s->modelled,
			s->launches - s->modelled == 1 ? "" : "es");
	for (i = 0; i < s->n && top < TOP; i++) {
		if (!order[i]->modelled)
			continue;
		if (!top++)
			fprintf(f, "\nHeadroom of the kernels with the most GPU "
				"time, at their heaviest\nconfiguration, the other "
				"inputs unchanged:\n");
		headroom_of(f, order[i], shown[i]);
	}
	for (i = 0; i < s->n; i++)
		free(shown[i]);
	free(shown);
	free(order);
}

