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
#include "task.h"
#include "util.h"

/* Entries in flight per thread: enough to keep every thread busy while
 * the oldest is delivered, and to find the large images early. With 1,024
 * in all, cuBLASLt's walk waited a third of its time for the oldest. */
#define TASKS_PER_JOB 256
/* But no more in all: their rows wait there to be delivered in order. */
#define RING_MAX 4096
/* Bytes of rows (and names) that read entries may hold while they wait
 * for an earlier one: past them only the oldest entry is started, so
 * that what waits is bounded whatever the images give (cuBLASLt's
 * 43,080 rows are 8 MB). 8 MB, not 64: PyTorch's libtorch_cuda.so had
 * 13 MB waiting at once on 15 readers, beside a list of 130,499 kernels,
 * and peaked 2 to 3 MB lower with 8, as fast (4 MB: two to three times
 * slower); docs/kernels-memory.md. */
#ifndef READ_WAITING_MB       /* set at build time to measure others */
#define READ_WAITING_MB 8
#endif
#define WAITING_MAX ((uint64_t)READ_WAITING_MB << 20)
/* An image this large is read first among those in flight. */
#define LARGE ((uint64_t)16 << 20)
/* Queued entries a free thread looks through for one the budget has room
 * for: past them, it waits for room rather than hold the lock longer. */
#define PICK_SCAN 256
#define MAX_JOBS 256     /* whatever the machine says */
/* Processors from which one is left to the calling thread. */
#define MACHINE_LEAVES_ONE 8
/* Bytes of images that threads may hold at once, however many threads
 * there are: the arena, and the pages sparse images keep (KEPT_ROOM). An
 * image the arena has no run for waits while smaller ones run; one larger
 * than the arena is read alone, in the arena grown to hold it. 56 MB,
 * not 72: with 72, PyTorch's libtorch_cuda.so peaked past 100 MB on 15
 * threads, its list beside a full arena; 56 cost 9 % of the toolkit's
 * time there (docs/kernels-memory.md). */
#ifndef READ_BUDGET_MB        /* set at build time to measure others */
#define READ_BUDGET_MB 56
#endif
#define BUDGET ((uint64_t)READ_BUDGET_MB << 20)
/* About 1 MB a sparse image (SPARSE_KEPT): with 8 MB, cuSPARSE's 115
 * streamed images ran eight at a time while the arena had room. */
#define KEPT_ROOM ((uint64_t)16 << 20)

struct bin_sched {
	int jobs, nthreads, idle;    /* threads started; waiting for work */
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
	uint64_t waiting;            /* task_bytes of those done, undelivered */
	int quit;
	enum occ_status failed;
	struct occ_bin_contents failed_seen;  /* the failed task's seen */
	int failed_task;
	struct bin_scratch scratch;  /* the calling thread's, for one job */
};

/* An image larger than the arena: read alone, in the arena grown. */
static int oversize(const struct bin_sched *s, const struct task *t)
{
	return t->need > s->arena.home;
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
	/* Rows waiting past their bound: only the oldest may start. */
	int oldest_only = s->waiting >= WAITING_MAX;

	while (s->next < s->tail && s->ring[s->next % s->cap].state != QUEUED)
		s->next++;
	for (i = 0; i < s->nlarge; i++) {
		if (oldest_only && s->large[i] != s->head)
			continue;
		t = &s->ring[s->large[i] % s->cap];
		if (fits(s, t, room)) {
			memmove(&s->large[i], &s->large[i + 1],
				(s->nlarge - i - 1) * sizeof *s->large);
			s->nlarge--;
			return t;
		}
	}
	end = s->tail - s->next > PICK_SCAN ? s->next + PICK_SCAN : s->tail;
	if (oldest_only)
		end = s->next == s->head && s->head < s->tail ? s->head + 1
		      : s->next;
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
		if (arena_grow(&s->arena, t->need))
			return NULL;      /* memory of its own */
	}
	return t->need ? arena_take(&s->arena, t->need) : NULL;
}

static void task_give(struct bin_sched *s, struct task *t, uint8_t *run)
{
	if (t->cancelled)
		return;
	s->kept -= t->kept;
	if (run)
		arena_give(&s->arena, run);
	if (oversize(s, t)) {
		s->alone = 0;
		arena_shrink(&s->arena);
	}
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

		while (!(t = pick(s)) && !(s->quit && s->next == s->tail)) {
			s->idle++;
			pthread_cond_wait(&s->work, &s->mu);
			s->idle--;
		}
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
		s->waiting += task_bytes(t);
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

int occ_bin_default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n >= MACHINE_LEAVES_ONE)
		n--;
	return n < 1 ? 1 : n > MAX_JOBS ? MAX_JOBS : (int)n;
}

static int jobs_for(int jobs)
{
	if (jobs <= 0)
		return occ_bin_default_jobs();
	return jobs > MAX_JOBS ? MAX_JOBS : jobs;
}

struct bin_sched *sched_open(int jobs)
{
	struct bin_sched *s = calloc(1, sizeof *s);

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
	if (s->threads && pthread_create(&s->threads[0], NULL, worker, s) == 0)
		s->nthreads = 1;       /* the others as entries queue */
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

	/* The rows not wanted were read too. */
	if (c->contents)
		c->contents->kernels += t->unwanted;
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
	int bounded;

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
		bounded = s->waiting >= WAITING_MAX;
		s->waiting -= task_bytes(t);
		task_reset(t);
		s->head++;
		/* Rows delivered: under the bound any entry may start, and
		 * over it the new oldest. */
		if (bounded)
			pthread_cond_broadcast(&s->work);
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

/* Whether to start one more thread: entries queue past those waiting
 * for work, so that a library of a few images starts a few threads, not
 * one for each core. Lock held. */
static int thread_wanted(const struct bin_sched *s)
{
	return s->nthreads < s->jobs && s->tail - s->next > (uint64_t)s->idle;
}

/* Started with the lock free, the workers going on meanwhile; only the
 * calling thread starts them and counts them. */
static void start_thread(struct bin_sched *s)
{
	if (pthread_create(&s->threads[s->nthreads], NULL, worker, s) == 0)
		s->nthreads++;
}

enum occ_status sched_submit(struct bin_ctx *c, const struct bin_entry *en,
			     const struct bin_entry *beside, size_t nbeside)
{
	struct bin_sched *s = c->sched;
	struct task *t;
	uint8_t *run;
	int start = 0;

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
		start = thread_wanted(s);
		pthread_cond_signal(&s->work);
		deliver_ready(c, s, 0);
	}
	if (s->failed != OCC_OK)
		cancel_rest(s);
	pthread_mutex_unlock(&s->mu);
	if (start)
		start_thread(s);
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
