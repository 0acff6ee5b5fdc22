/*
 * task.c - one fatbin entry read into rows on whichever thread runs it:
 * its rows and their names copied into the task, to wait there until
 * every earlier entry's are delivered (sched.c), with the PTX text a row
 * keeps and, when it fails, why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "task.h"

void task_reset(struct task *t)
{
	size_t i;

	for (i = 0; i < t->ntexts; i++)
		free(t->texts[i].copy);
	free(t->texts);
	free(t->beside);
	free(t->k);
	free(t->names);
	free(t->diag);
	memset(t, 0, sizeof *t);
}

uint64_t task_bytes(const struct task *t)
{
	return (uint64_t)t->n * sizeof *t->k + t->names_n;
}

/* The task's copy of a PTX entry's text, made once per entry. */
static const char *keep_text(struct task *t, const char *text, size_t len)
{
	struct text *grown;
	size_t i;

	for (i = 0; i < t->ntexts; i++)
		if (t->texts[i].src == text)
			return t->texts[i].copy;
	if (!(grown = realloc(t->texts, (t->ntexts + 1) * sizeof *grown)))
		return NULL;
	t->texts = grown;
	if (!(grown[t->ntexts].copy = malloc(len ? len : 1)))
		return NULL;
	memcpy(grown[t->ntexts].copy, text, len);
	grown[t->ntexts].src = text;
	return t->texts[t->ntexts++].copy;
}

static int keep_name(struct task *t, const char *name, size_t *at)
{
	size_t len = strlen(name) + 1;
	char *grown;

	if (len > SIZE_MAX / 2 - t->names_n)
		return -1;
	if (t->names_n + len > t->names_cap) {
		size_t cap = t->names_cap ? t->names_cap : 256;

		while (cap < t->names_n + len)
			cap *= 2;
		if (!(grown = realloc(t->names, cap)))
			return -1;
		t->names = grown;
		t->names_cap = cap;
	}
	memcpy(t->names + t->names_n, name, len);
	*at = t->names_n;
	t->names_n += len;
	return 0;
}

/* The worker's callback: the row kept, its name copied (1: no memory),
 * unless the caller does not want it. */
static int collect(const struct occ_bin_kernel *k, void *ctx)
{
	struct task *t = ctx;
	size_t at;

	if (t->want && !t->want(k->mangled, t->want_ctx)) {
		t->unwanted++;
		return 0;
	}
	if (t->n == IMAGE_ROWS_MAX)
		return t->too_many = 1;
	if (strlen(k->mangled) >= IMAGE_NAMES_MAX - t->names_n)
		return t->too_many = 2;
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 4;
		struct occ_bin_kernel *grown = realloc(t->k, cap * sizeof *grown);

		if (!grown)
			return t->nomem = 1;
		t->k = grown;
		t->cap = cap;
	}
	if (keep_name(t, k->mangled, &at))
		return t->nomem = 1;
	t->k[t->n] = *k;
	t->k[t->n].mangled = (const char *)(uintptr_t)at;
	t->k[t->n].file = NULL;
	t->k[t->n].ptx_text = NULL;
	if (k->ptx_text && t->want_text &&
	    !(t->k[t->n].ptx_text = keep_text(t, k->ptx_text, k->ptx_len)))
		return t->nomem = 1;
	t->n++;
	return 0;
}

/* One entry read into rows in c (the task's context). */
static enum occ_status read_one(struct task *t, struct bin_ctx *c,
				struct bin_scratch *sc, const struct bin_entry *en)
{
	struct span payload;
	const uint8_t *p;
	int streamed = sparse_streamed(t->src, en, t->want_text);
	enum occ_status st = src_read(t->src, en->off,
				      streamed ? 0 : (size_t)en->size,
				      &sc->in, &p);

	/* A streamed payload is read later, in pieces (sparse.c): p only
	 * places it in the file for messages. */
	if (st == OCC_OK && streamed && en->size > t->src->len - en->off)
		st = OCC_ERR_CORRUPT;
	if (st != OCC_OK)
		return src_fail(c, st, en->off);
	payload.p = p;
	payload.n = (size_t)en->size;
	/* Messages point into the file: the window is the source's
	 * memory, or the payload read from the file at its offset. */
	c->file = t->src->mem ? t->src->mem : p;
	c->file_len = t->src->mem ? (size_t)t->src->len : payload.n;
	c->file_off = t->src->mem ? 0 : en->off;
	return entry_read(c, en, payload);
}

/* Reads the task's entry into rows, on whichever thread runs it; then,
 * when one of its kernels has a register cap, the PTX beside it. */
void task_run(struct task *t, struct bin_scratch *sc)
{
	struct bin_ctx c;
	struct occ_bin_diag d = { 0 };
	size_t i;

	memset(&c, 0, sizeof c);
	c.fn = collect;
	c.ctx = t;
	c.diag = &d;
	c.src = t->src;
	c.scratch = sc;
	c.container = t->container;
	c.fatbin_offset = t->fatbin_offset;
	c.depth = t->depth;
	c.image = t->image;
	c.images = t->images;
	c.images_run = t->images_run;
	c.keep_ptx_text = t->want_text;
	t->st = read_one(t, &c, sc, &t->en);
	if (t->st == OCC_OK && c.capped && c.image == OCC_IMAGE_SASS) {
		c.image = OCC_IMAGE_BESIDE;
		for (i = 0; i < t->nbeside && t->st == OCC_OK; i++)
			t->st = read_one(t, &c, sc, &t->beside[i]);
	}
	if (t->nomem)
		t->st = OCC_ERR_NOMEM;
	if (t->too_many) {
		t->st = OCC_ERR_RANGE;
		d.offset = t->en.off;
		if (t->too_many == 1)
			snprintf(d.what, sizeof d.what, "an image of more than "
				 "%d kernels", IMAGE_ROWS_MAX);
		else
			snprintf(d.what, sizeof d.what, "an image whose "
				 "kernels' names pass %zu MB",
				 IMAGE_NAMES_MAX >> 20);
	}
	if (t->st != OCC_OK && (t->diag = malloc(sizeof d)))
		*t->diag = d;
}

/* The entry and what the reader knows of it where it was found. */
int task_from(struct task *t, const struct bin_ctx *c,
		     const struct bin_entry *en, const struct bin_entry *beside,
		     size_t nbeside)
{
	if (nbeside) {
		if (!(t->beside = malloc(nbeside * sizeof *beside)))
			return -1;
		memcpy(t->beside, beside, nbeside * sizeof *beside);
		t->nbeside = nbeside;
	}
	t->want_text = !c->opts || c->opts->ptx_text;
	t->want = c->opts ? c->opts->want : NULL;
	t->want_ctx = c->opts ? c->opts->want_ctx : NULL;
	if (c->contents)
		t->seen = *c->contents;
	t->en = *en;
	t->src = c->src;
	t->container = c->container;
	t->fatbin_offset = c->fatbin_offset;
	t->depth = c->depth;
	t->image = c->image;
	t->images = c->images;
	t->images_run = c->images_run;
	t->need = entry_need(t->src, &t->en, t->want_text);
	t->kept = entry_kept(en, t->want_text);
	return 0;
}
