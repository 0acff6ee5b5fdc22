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

/* A set of limiters (occ_launch_limiter_set) as the text names it. */
static void set_name(char *buf, size_t n, unsigned set)
{
	struct occ_val v;

	occ_val_limiters(&v, occ_launch_limiter_resources(set));
	occ_val_format(buf, n, &v);
	if (!set)
		snprintf(buf, n, "cannot launch");
}

/* ---- Printing ---- */

/* What a summary is printed from: the library's totals and groups. */
struct view {
	const struct launch_summary *s;
	const struct occ_launch_totals *t;
};

/* By time where the traces timed launches, else by launch. */
static const struct occ_launch_acc *
weights(const struct view *s, const struct occ_launch_summary_group *k)
{
	return occ_launch_summary_weights(s->t, k);
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100 * part / whole : 0;
}

/* What limits the kernel, by its time: the two sets of limiters that
 * hold the most, with their shares ("registers", "shared_memory 60%,
 * warps+registers 40%"). */
static void limiter_mix(char *buf, size_t n, const struct occ_launch_acc *a)
{
	unsigned first, second;
	char name[96];
	size_t len;
	int two = occ_launch_limiter_mix(a, &first, &second);

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
	if (two) {
		set_name(name, sizeof name, second);
		snprintf(buf + len, len < n ? n - len : 0, ", %s %.0f%%", name,
			 pct(a->lim[second], a->modelled));
	}
}

/* A name cell: the name escaped (escape_text) and padded to width
 * columns (a name may hold UTF-8: '…'). */
static void name_put(FILE *f, const char *name, size_t width)
{
	char e[4 * NAME_SHOWN + 8];
	size_t cols;

	escape_text(e, sizeof e, name);
	cols = name_columns(e);
	fprintf(f, "%s%*s", e, (int)(width > cols ? width - cols : 0), "");
}

static int any_kineto(const struct view *s)
{
	return weights(s, NULL)->kineto_w > 0;
}

static int any_achieved(const struct view *s)
{
	return weights(s, NULL)->achieved_w > 0;
}

/* The achieved occupancy of the kernel's measured launches, and their
 * occupancy in brackets: shown for the first top kernels (0: all). */
static void achieved_cell(char *buf, size_t n, const struct occ_launch_acc *a,
			  int shown)
{
	if (shown && a->achieved_w > 0)
		snprintf(buf, n, "%.2f%% (%.2f%%)", a->achieved / a->achieved_w,
			 a->achieved_occ / a->achieved_w);
	else
		snprintf(buf, n, "-");
}

static void kernel_line(FILE *f, const struct view *s,
			const struct occ_launch_summary_group *k,
			const char *name, size_t width, int achieved_shown)
{
	const struct occ_launch_acc *a = weights(s, k), *all = weights(s, NULL);
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

static void header(FILE *f, const struct view *s, size_t width)
{
	const struct occ_launch_totals *t = s->t;
	char dev[sizeof t->devs[0]->d.name * 4];
	size_t i;

	fprintf(f, "%" PRIu64 " launch%s of %zu %s%s in %zu file%s, "
		"%.3f ms of GPU time\n", t->launches,
		t->launches == 1 ? "" : "es", t->groups,
		s->s->by_op ? "op" : "kernel", plural((long long)t->groups),
		t->files, plural((long long)t->files), t->t.all / 1e6);
	for (i = 0; i < t->n_devs; i++) {
		escape_text(dev, sizeof dev, t->devs[i]->d.name);
		fprintf(f, "  %s: %s, %d SMs%s\n", dev, t->devs[i]->tag,
			t->devs[i]->d.multiProcessorCount,
			launches_named_note(t->devs[i]));
		if (t->devs[i]->in_part)
			part_note(f, t->devs[i]);
	}
	if (t->t.all <= 0 && t->launches)
		fprintf(f, "No launch has a duration: shares are of launches, "
			"not of time.\n");
	fprintf(f, "\n");
	name_put(f, s->s->by_op ? "op" : "kernel", width);
	fprintf(f, " %3s %8s %6s %10s %7s %9s %6s %6s %6s", "gpu", "launches", "shapes", "GPU ms", "time", "occupancy",
		"<25%", "<50%", "tail");
	if (any_kineto(s))
		fprintf(f, " %8s", "kineto");
	if (any_achieved(s))
		fprintf(f, " %17s", "achieved");
	fprintf(f, "  limiter\n");
}

#define TOP 5

static void headroom_of(FILE *f, const struct occ_launch_summary_group *k,
			const char *name)
{
	const struct occ_launch_config *c = occ_launch_summary_heaviest(k);
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
static char **names_of(FILE *f, const struct view *s,
		       const struct occ_launch_summary_group *const *order,
		       size_t n, size_t *width)
{
	char **full = calloc(n ? n : 1, sizeof *full);
	char **shown = calloc(n ? n : 1, sizeof *shown);
	char e[4 * NAME_SHOWN + 8];
	size_t i, cols, widest = 0;
	int whole = s->s->wide || s->s->by_op;

	if (!full || !shown)
		die("out of memory for the summary of %zu kernels", n);
	for (i = 0; i < n; i++) {
		if (!(full[i] = strndup(order[i]->name, NAME_SHOWN)))
			die("out of memory for the summary");
		escape_text(e, sizeof e, full[i]);
		cols = name_columns(e);
		widest = cols > widest ? cols : widest;
	}
	if (!whole && terminal_columns(f) >= widest + LINE_REST)
		whole = 1;
	if (whole) {
		memcpy(shown, full, n * sizeof *full);
		memset(full, 0, n * sizeof *full);
	} else if (!names_shorten((const char *const *)full, n, shown)) {
		die("out of memory for the summary of %zu kernels", n);
	}
	for (i = 0; i < n; i++)
		free(full[i]);
	free(full);
	*width = strlen(s->s->by_op ? "op" : "kernel");
	for (i = 0; i < n; i++) {
		escape_text(e, sizeof e, shown[i]);
		cols = name_columns(e);
		*width = cols > *width ? cols : *width;
	}
	return shown;
}

void launch_summary_print(FILE *f, struct launch_summary *sum,
			  size_t achieved_top)
{
	struct view view = { sum, occ_launch_summary_totals(sum->sum) };
	const struct view *s = &view;
	const struct occ_launch_totals *t = view.t;
	const struct occ_launch_summary_group *const *order;
	char **shown;
	size_t i, n, top = 0, width;

	if (sum->failed ||
	    occ_launch_summary_groups(sum->sum, &order, &n) != OCC_OK)
		die("out of memory for the summary of %zu kernels", t->groups);
	shown = names_of(f, s, order, n, &width);
	header(f, s, width);
	for (i = 0; i < n; i++)
		kernel_line(f, s, order[i], shown[i], width,
			    !achieved_top || i < achieved_top);
	if (t->t.all > 0)
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
	if (t->untracked)
		fprintf(f, "\n%" PRIu64 " launch%s of kernels past the first "
			"%d are in the totals, not listed\n(the summary holds "
			"at most %d kernels: -f csv gives every launch).\n",
			t->untracked, t->untracked == 1 ? "" : "es",
			OCC_LAUNCH_SUMMARY_GROUPS, OCC_LAUNCH_SUMMARY_GROUPS);
	if (t->n_shapes == OCC_LAUNCH_SUMMARY_SHAPES)
		fprintf(f, "\nshapes: counted up to %u for all kernels "
			"together; N+: more, not counted.\n",
			OCC_LAUNCH_SUMMARY_SHAPES);
	if (t->modelled < t->launches)
		fprintf(f, "\n%" PRIu64 " launch%s without occupancy figures "
			"(why: on standard error) count in the time, not in the "
			"percentages.\n", t->launches - t->modelled,
			t->launches - t->modelled == 1 ? "" : "es");
	for (i = 0; i < n && top < TOP; i++) {
		if (!order[i]->modelled)
			continue;
		if (!top++)
			fprintf(f, "\nHeadroom of the kernels with the most GPU "
				"time, at their heaviest\nconfiguration, the other "
				"inputs unchanged:\n");
		headroom_of(f, order[i], shown[i]);
	}
	for (i = 0; i < n; i++)
		free(shown[i]);
	free(shown);
}

