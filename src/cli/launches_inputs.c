/*
 * launches_inputs.c - what --launches reads and on which GPU: its
 * arguments made into files (a directory --trace-out wrote: its trace
 * files in name order; '-': standard input), and --gpu NAME's GPU as a
 * device every launch is modelled on (the library's rule,
 * occ_launch_basis_of).
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "launches.h"

/* The most files one run reads (a rank's trace each). */
#define INPUTS_MAX 4096

void launches_gpu_device(struct session *s, struct occ_launch_device *d)
{
	if (occ_launch_device_of_gpu(&s->listed, -1, d) != OCC_OK)
		die_usage("--gpu %s: the GPU list gives no SM count for it (%s): "
			  "its launches cannot be modelled there",
			  s->listed.name, s->listed.source);
}

const char *launches_named_note(const struct occ_launch_dev *ld)
{
	if (!ld->named)
		return "";
	if (ld->what_if && ld->named_ran)
		return " (--gpu: every launch as it would run on it; those of "
		       "traces that describe no device as run on it)";
	if (ld->named_ran)
		return " (--gpu: the GPU the traces ran on, which they do not "
		       "describe)";
	return " (--gpu: every launch as it would run on it, not on the "
	       "GPU it ran on)";
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n >= m && strcmp(s + n - m, tail) == 0;
}

/* What --trace-out DIR/ writes (occcalc-trace.ID.PID.jsonl) and what
 * torch.profiler's tensorboard_trace_handler writes (*.pt.trace.json,
 * .gz): a trace file of a rank. */
static int trace_name(const char *name)
{
	if (name[0] == '.')
		return 0;
	if (strncmp(name, "occcalc-trace.", 14) == 0 &&
	    (ends_with(name, ".jsonl") || ends_with(name, ".jsonl.gz")))
		return 1;
	return ends_with(name, ".json") || ends_with(name, ".json.gz");
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add(struct launch_inputs *in, char *name)
{
	char **p;

	if (!name)
		die("out of memory");
	if (in->n == INPUTS_MAX) {
		free(name);
		die_usage("--launches: at most %d files", INPUTS_MAX);
	}
	if (in->n == in->cap) {
		in->cap = in->cap ? 2 * in->cap : 16;
		p = realloc(in->names, in->cap * sizeof *p);
		if (!p) {
			free(name);
			die("out of memory");
		}
		in->names = p;
	}
	in->names[in->n++] = name;
}

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	int slash = dir[0] && dir[strlen(dir) - 1] == '/';

	if (p)
		snprintf(p, n, "%s%s%s", dir, slash ? "" : "/", name);
	return p;
}

/* A line said once every file is known to open (launches_inputs_say):
 * a run refused for a file that cannot be read says that alone. */
static void note(struct launch_inputs *in, const char *fmt, ...)
{
	char **notes = realloc(in->notes, (in->n_notes + 1) * sizeof *notes);
	va_list ap;
	int n;

	if (!notes)
		die("out of memory");
	in->notes = notes;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !(notes[in->n_notes] = malloc((size_t)n + 1)))
		die("out of memory");
	va_start(ap, fmt);
	vsnprintf(notes[in->n_notes++], (size_t)n + 1, fmt, ap);
	va_end(ap);
}

void launches_inputs_say(struct launch_inputs *in)
{
	size_t i;

	for (i = 0; i < in->n_notes; i++) {
		warn("%s", in->notes[i]);
		free(in->notes[i]);
	}
	free(in->notes);
	in->notes = NULL;
	in->n_notes = 0;
}

/* A directory's trace files, in name order: ranks in their order. */
static void add_dir(struct launch_inputs *in, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat sb;
	size_t first = in->n;
	char *path;

	if (!d)
		die("%s: cannot read: %s", dir, strerror(errno));
	while ((e = readdir(d)) != NULL) {
		if (!trace_name(e->d_name))
			continue;
		path = join(dir, e->d_name);
		if (path && (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))) {
			free(path);
			continue;
		}
		add(in, path);
	}
	closedir(d);
	if (in->n == first)
		die("%s: no trace file in it (occcalc-trace.*.jsonl as "
		    "--trace-out writes, *.json, *.json.gz)", dir);
	qsort(in->names + first, in->n - first, sizeof *in->names, by_name);
	note(in, "%s: %zu trace file%s, read in name order: %s%s", dir,
	     in->n - first, in->n - first == 1 ? "" : "s",
	     in->names[first] + strlen(dir) + (dir[strlen(dir) - 1] != '/'),
	     in->n - first > 1 ? " first" : "");
}

static void add_arg(struct launch_inputs *in, const char *arg)
{
	struct stat sb;

	if (strcmp(arg, "-") != 0 && stat(arg, &sb) == 0 && S_ISDIR(sb.st_mode))
		add_dir(in, arg);
	else
		add(in, strdup(arg));
}

void launches_inputs(const struct options *o, struct launch_inputs *in)
{
	int i, stdin_seen = 0;

	add_arg(in, o->launches);
	for (i = 0; i < o->n_more_launches; i++)
		add_arg(in, o->more_launches[i]);
	for (i = 0; (size_t)i < in->n; i++)
		if (strcmp(in->names[i], "-") == 0 && stdin_seen++)
			die_usage("--launches: '-' given twice: standard input "
				  "is read once");
}

void launches_inputs_free(struct launch_inputs *in)
{
	size_t i;

	for (i = 0; i < in->n; i++)
		free(in->names[i]);
	free(in->names);
	for (i = 0; i < in->n_notes; i++)
		free(in->notes[i]);
	free(in->notes);
	memset(in, 0, sizeof *in);
}

const char *launches_input_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

void launches_read_said(const struct options *o, const char *path,
			enum occ_status st, const struct occ_launch_file *fi,
			const struct occ_diag *d)
{
	if (st != OCC_OK && fi->not_trace)
		die("%s: not a PyTorch profiler or occcalc trace: %s", path,
		    d->key);
	if (st != OCC_OK)
		return;
	/* PyTorch's trace, recorded without the GPU's activity. */
	if (fi->no_kernel_events)
		die("%s: no kernel events: a PyTorch profiler trace records "
		    "them with ProfilerActivity.CUDA in torch.profiler.profile's "
		    "activities", path);
	if (fi->devices_late)
		warn("%s: its deviceProperties come after its traceEvents, and "
		     "%s cannot be read twice: the launches before them have "
		     "no device (give its file's path%s)", path, path,
		     o->gpu ? "" : ", or --gpu NAME");
}
