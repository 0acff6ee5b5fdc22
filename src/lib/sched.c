/*
 * sched.c - fatbin entries read on a pool of threads. Each entry is read,
 * decompressed and reduced to its kernels' rows by one worker; the rows
 * wait in a ring of tasks until every earlier entry's are delivered, so
 * that the callback sees them on the calling thread in the order a
 * single-threaded read gives, and the first failure in that order is the
 * one reported. With one job, entries are read as they are submitted.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bin.h"
#include "util.h"

/* Entries in flight per thread: enough to keep every thread busy while
 * the oldest is delivered, and to find the large images early. With 1,024
 * in all, cuBLASLt's walk waited a third of its time for the oldest. */
#define TASKS_PER_JOB 256
/* But no more in all: their rows wait there to be delivered in order. */
#define RING_MAX 4096
/* An image this large is read first among those in flight. */
#define LARGE ((uint64_t)16 << 20)
/* Queued entries a free thread looks through for one the budget has room
 * for: past them, it waits for room rather than hold the lock longer. */
#define PICK_SCAN 256
#define MAX_JOBS 256     /* whatever the machine says */
/* Bytes of images that threads may hold at once, however many threads
 * there are: the arena, and the pages sparse images keep (KEPT_ROOM). An
 * image the arena has no run for waits while smaller ones run; one larger
 * than the arena is read alone, in memory of its own. */
#ifndef READ_BUDGET_MB        /* set at build time to measure others */
#define READ_BUDGET_MB 56     /* 16 threads: cuBLASLt 80-83 MB resident */
#endif
#define BUDGET ((uint64_t)READ_BUDGET_MB << 20)
#define KEPT_ROOM ((uint64_t)8 << 20)

enum { QUEUED, RUNNING, DONE };

struct task {
	struct bin_entry en;
	const struct bin_src *src;
	enum occ_bin_container container;
	int64_t fatbin_offset;
	int depth;
	enum occ_bin_image image;     /* how the image was chosen */
	int images, images_run;
	struct bin_entry *beside;     /* PTX read after it if capped */
	size_t nbeside;
	int want_text;                /* PTX rows keep their text */
	struct text { const char *src; char *copy; } *texts;
	size_t ntexts;
	int state, cancelled, nomem;
	uint64_t need;                /* entry_need(), when submitted */
	uint64_t kept;                /* a sparse image's pages kept */
	/* What the walk had counted when it was submitted: a walk that
	 * stops at its failure, as one job's does, counts that much. */
	struct occ_bin_contents seen;
	enum occ_status st;
	struct occ_bin_diag *diag;    /* why it failed, kept only then */
	struct occ_bin_kernel *k; /* rows; mangled is an offset in names */
	size_t n, cap;
	char *names;
	size_t names_n, names_cap;
};

struct bin_sched {
	int jobs, nthreads;
	pthread_t *threads;
	pthread_mutex_t mu;
	pthread_cond_t work, done;  /* a task queued or room made; done */
	struct arena arena;          /* the memory images are read in */
	uint64_t kept;               /* pages kept by sparse images read */
	int alone;                   /* an image larger than the arena */
	int room_wanted;             /* a queued image waits for room */
	uint64_t *large;             /* queued images of LARGE or more, */
	size_t nlarge;               /*   oldest first */
	struct task *ring;
	size_t cap;
	uint64_t head, next, tail;   /* oldest undelivered, oldest queued, end */
	int quit;
	enum occ_status failed;
	struct occ_bin_contents failed_seen;  /* the failed task's seen */
	int failed_task;
	struct bin_scratch scratch;  /* the calling thread's, for one job */
};

static void task_reset(struct task *t)
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

/* The worker's callback: the row kept, its name copied (1: no memory). */
static int collect(const struct occ_bin_kernel *k, void *ctx)
{
	struct task *t = ctx;
	size_t at;

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
static void task_run(struct task *t, struct bin_scratch *sc)
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
	if (t->st != OCC_OK && (t->diag = malloc(sizeof d)))
		*t->diag = d;
}

/* An image larger than the arena: read alone, in memory of its own. */
static int oversize(const struct bin_sched *s, const struct task *t)
{
	return t->need > s->arena.len;
}

/* Whether the budget has room for t (room: the arena's largest run). */
static int fits(const struct bin_sched *s, const struct task *t,
		uint64_t room)
{
	if (t->cancelled)
		return 1;
	if (s->alone)
		return 0;
	if (oversize(s, t))
		return s->arena.nrun == 0 && s->kept == 0;
	return (!t->need || t->need <= room) &&
	       s->kept + t->kept <= KEPT_ROOM;
}

static int is_large(const struct task *t)
{
	return t->en.usize >= LARGE;
}

/* The task a free thread reads next: the oldest queued large image with
 * room, whose time would otherwise end the read (NCCL's 130 MB images
 * come after 900 small ones); else the oldest next one with room. */
static struct task *pick(struct bin_sched *s)
{
	struct task *t;
	uint64_t i, end, room = arena_largest(&s->arena);

	while (s->next < s->tail && s->ring[s->next % s->cap].state != QUEUED)
		s->next++;
	for (i = 0; i < s->nlarge; i++) {
		t = &s->ring[s->large[i] % s->cap];
		if (fits(s, t, room)) {
			memmove(&s->large[i], &s->large[i + 1],
				(s->nlarge - i - 1) * sizeof *s->large);
			s->nlarge--;
			return t;
		}
	}
	end = s->tail - s->next > PICK_SCAN ? s->next + PICK_SCAN : s->tail;
	for (i = s->next; i < end; i++) {
		t = &s->ring[i % s->cap];
		if (t->state == QUEUED && !is_large(t) && fits(s, t, room))
			return t;
	}
	if (s->next < s->tail)
		s->room_wanted = 1;
	return NULL;
}

/* The budget t takes, and its run (NULL: none, or its own). Lock held. */
static uint8_t *task_take(struct bin_sched *s, struct task *t)
{
	if (t->cancelled)
		return NULL;
	s->kept += t->kept;
	if (oversize(s, t)) {
		s->alone = 1;
		return NULL;
	}
	return t->need ? arena_take(&s->arena, t->need) : NULL;
}

static void task_give(struct bin_sched *s, struct task *t, uint8_t *run)
{
	if (t->cancelled)
		return;
	s->kept -= t->kept;
	if (oversize(s, t))
		s->alone = 0;
	if (run)
		arena_give(&s->arena, run);
}

/* Reads t in its run (the scratch's buffers lent from it). */
static void task_run_in(struct task *t, struct bin_scratch *sc, uint8_t *run)
{
	scratch_lend(sc, run, t->src, &t->en, t->want_text);
	task_run(t, sc);
	scratch_return(sc);
}

static void *worker(void *arg)
{
	struct bin_sched *s = arg;
	struct bin_scratch sc;

	memset(&sc, 0, sizeof sc);
	pthread_mutex_lock(&s->mu);
	for (;;) {
		struct task *t;
		uint8_t *run;

		while (!(t = pick(s)) && !(s->quit && s->next == s->tail))
			pthread_cond_wait(&s->work, &s->mu);
		if (!t)
			break;
		t->state = RUNNING;
		run = task_take(s, t);
		pthread_mutex_unlock(&s->mu);
		if (!t->cancelled)
			task_run_in(t, &sc, run);
		pthread_mutex_lock(&s->mu);
		task_give(s, t, run);
		t->state = DONE;
		if (s->room_wanted) {          /* room for a waiting one */
			s->room_wanted = 0;
			pthread_cond_broadcast(&s->work);
		}
		pthread_cond_signal(&s->done);
	}
	pthread_mutex_unlock(&s->mu);
	scratch_free(&sc);
	return NULL;
}

static int jobs_for(int jobs)
{
	long n = jobs > 0 ? jobs : sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > MAX_JOBS ? MAX_JOBS : (int)n;
}

struct bin_sched *sched_open(int jobs)
{
	struct bin_sched *s = calloc(1, sizeof *s);
	int i;

	if (!s)
		return NULL;
	s->jobs = jobs_for(jobs);
	s->cap = s->jobs == 1 ? 1 : (size_t)s->jobs * TASKS_PER_JOB;
	if (s->cap > RING_MAX)
		s->cap = RING_MAX;
	s->ring = calloc(s->cap, sizeof *s->ring);
	s->large = calloc(s->cap, sizeof *s->large);
	if (!s->ring || !s->large ||
	    arena_open(&s->arena, arena_for(BUDGET - KEPT_ROOM, s->jobs),
		       (size_t)s->jobs)) {
		free(s->ring);
		free(s->large);
		free(s);
		return NULL;
	}
	if (s->jobs == 1)
		return s;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->work, NULL);
	pthread_cond_init(&s->done, NULL);
	s->threads = calloc((size_t)s->jobs, sizeof *s->threads);
	for (i = 0; s->threads && i < s->jobs; i++)
		if (pthread_create(&s->threads[i], NULL, worker, s) != 0)
			break;
	s->nthreads = s->threads ? i : 0;
	if (s->nthreads == 0) {        /* no thread: read on the caller's */
		free(s->threads);
		s->threads = NULL;
		s->jobs = 1;
		s->cap = 1;
	}
	return s;
}

int sched_jobs(const struct bin_sched *s)
{
	return s->jobs;
}

void sched_close(struct bin_sched *s)
{
	int i;
	uint64_t j;

	if (!s)
		return;
	if (s->threads) {
		pthread_mutex_lock(&s->mu);
		s->quit = 1;
		pthread_cond_broadcast(&s->work);
		pthread_mutex_unlock(&s->mu);
		for (i = 0; i < s->nthreads; i++)
			pthread_join(s->threads[i], NULL);
		free(s->threads);
	}
	if (s->jobs > 1 || s->nthreads) {
		pthread_mutex_destroy(&s->mu);
		pthread_cond_destroy(&s->work);
		pthread_cond_destroy(&s->done);
	}
	/* Not the whole ring: its pages would be faulted in to be cleared. */
	for (j = s->head; j < s->tail; j++)
		task_reset(&s->ring[j % s->cap]);
	task_reset(&s->ring[0]);       /* one job's */
	arena_close(&s->arena);
	free(s->ring);
	free(s->large);
	scratch_free(&s->scratch);
	free(s);
}

/* The task's rows to the caller's callback, then its failure if any. */
static void deliver(struct bin_ctx *c, struct bin_sched *s, struct task *t)
{
	/* A failure with no memory left to say why. */
	static const struct occ_bin_diag unsaid;
	size_t i;

	for (i = 0; i < t->n && s->failed == OCC_OK; i++) {
		struct occ_bin_kernel k = t->k[i];

		k.mangled = t->names + (uintptr_t)k.mangled;
		k.ptx_len = k.ptx_text ? k.ptx_len : 0;
		if (bin_call(c, &k))
			s->failed = OCC_ERR_INVALID_INPUT;
	}
	if (s->failed == OCC_OK && t->st != OCC_OK) {
		const struct occ_bin_diag *d = t->diag ? t->diag : &unsaid;

		c->diag->offset = d->offset;
		memcpy(c->diag->what, d->what, sizeof c->diag->what);
		s->failed = t->st;
	}
	if (s->failed != OCC_OK && !s->failed_task) {
		s->failed_seen = t->seen;
		s->failed_task = 1;
	}
}

/* Delivers the oldest tasks that are done; with wait, waits for the
 * oldest first. Lock held (threads), dropped while the callback runs. */
static void deliver_ready(struct bin_ctx *c, struct bin_sched *s, int wait)
{
	while (s->head < s->tail) {
		struct task *t = &s->ring[s->head % s->cap];

		if (t->state != DONE && !wait)
			return;
		while (t->state != DONE)
			pthread_cond_wait(&s->done, &s->mu);
		if (s->failed == OCC_OK) {
			pthread_mutex_unlock(&s->mu);
			deliver(c, s, t);
			pthread_mutex_lock(&s->mu);
		}
		task_reset(t);
		s->head++;
		wait = 0;
	}
}

/* Once something failed, what is queued is not read. */
static void cancel_rest(struct bin_sched *s)
{
	uint64_t i;

	for (i = s->next; i < s->tail; i++)
		if (s->ring[i % s->cap].state == QUEUED)
			s->ring[i % s->cap].cancelled = 1;
}

/* The entry and what the reader knows of it where it was found. */
static int task_from(struct task *t, const struct bin_ctx *c,
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

enum occ_status sched_submit(struct bin_ctx *c, const struct bin_entry *en,
			     const struct bin_entry *beside, size_t nbeside)
{
	struct bin_sched *s = c->sched;
	struct task *t;
	uint8_t *run;

	if (s->failed != OCC_OK)
		return s->failed;
	if (s->jobs == 1) {
		t = &s->ring[0];
		task_reset(t);
		if (task_from(t, c, en, beside, nbeside))
			return OCC_ERR_NOMEM;
		run = task_take(s, t);
		task_run_in(t, &s->scratch, run);
		task_give(s, t, run);
		deliver(c, s, t);
		task_reset(t);
		return s->failed;
	}
	pthread_mutex_lock(&s->mu);
	if (s->tail - s->head == s->cap)
		deliver_ready(c, s, 1);
	if (s->failed == OCC_OK) {
		t = &s->ring[s->tail % s->cap];
		if (task_from(t, c, en, beside, nbeside)) {
			task_reset(t);
			pthread_mutex_unlock(&s->mu);
			return OCC_ERR_NOMEM;
		}
		t->state = QUEUED;
		if (is_large(t))
			s->large[s->nlarge++] = s->tail;
		s->tail++;
		pthread_cond_signal(&s->work);
		deliver_ready(c, s, 0);
	}
	if (s->failed != OCC_OK)
		cancel_rest(s);
	pthread_mutex_unlock(&s->mu);
	return s->failed;
}

enum occ_status sched_finish(struct bin_ctx *c, enum occ_status st)
{
	struct bin_sched *s = c->sched;
	enum occ_status failed;

	if (s->jobs > 1) {
		pthread_mutex_lock(&s->mu);
		if (s->failed != OCC_OK)
			cancel_rest(s);
		while (s->head < s->tail) {
			deliver_ready(c, s, 1);
			if (s->failed != OCC_OK)
				cancel_rest(s);
		}
		pthread_mutex_unlock(&s->mu);
	}
	failed = s->failed;
	/* Threads let the walk count on past the failure: back to what it
	 * had counted then (the kernels are those delivered). */
	if (s->failed_task && c->contents) {
		uint64_t kernels = c->contents->kernels;

		*c->contents = s->failed_seen;
		c->contents->kernels = kernels;
	}
	s->failed_task = 0;
	s->failed = OCC_OK;            /* the next file starts afresh */
	return failed != OCC_OK ? failed : st;
}
