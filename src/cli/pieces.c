/*
 * pieces.c - a long list's rows made on threads. The list is cut into
 * pieces of consecutive items; workers make each piece into a context of
 * its own (its rows in memory), and the calling thread joins the pieces
 * in list order, so that what is printed is what one thread prints. A
 * toolkit library's 40,000 to 60,000 rows took a fifth of --kernels' time
 * on one thread once the reading was spread over the others.
 */
#include <pthread.h>
#include <stdlib.h>

#include "cli.h"

/* Items a piece: enough that a piece's context costs nothing beside it. */
#define PIECE 512
/* Pieces made ahead of the one being joined, per thread: what waits in
 * memory, at most. */
#define AHEAD 2
#define MAX_THREADS 256

struct piece {
	void *made;
	int done;
};

struct pieces {
	const struct pieces_job *job;
	pthread_mutex_t mu;
	pthread_cond_t made, room;
	size_t count, next, joined, ahead;
	struct piece *p;
};

static void make(struct pieces *ps, size_t i)
{
	const struct pieces_job *j = ps->job;
	size_t to = (i + 1) * PIECE < j->n ? (i + 1) * PIECE : j->n;
	void *made = j->open(j->ctx);

	if (made)
		j->make(made, i * PIECE, to);
	pthread_mutex_lock(&ps->mu);
	ps->p[i].made = made;
	ps->p[i].done = 1;
	pthread_cond_broadcast(&ps->made);
	pthread_mutex_unlock(&ps->mu);
}

static void *worker(void *arg)
{
	struct pieces *ps = arg;
	size_t i;

	pthread_mutex_lock(&ps->mu);
	while (ps->next < ps->count) {
		if (ps->next >= ps->joined + ps->ahead) {
			pthread_cond_wait(&ps->room, &ps->mu);
			continue;
		}
		i = ps->next++;
		pthread_mutex_unlock(&ps->mu);
		make(ps, i);
		pthread_mutex_lock(&ps->mu);
	}
	pthread_mutex_unlock(&ps->mu);
	return NULL;
}

/* Piece i, made by a worker or, when none has taken it, here. */
static void *wait_for(struct pieces *ps, size_t i)
{
	pthread_mutex_lock(&ps->mu);
	if (ps->next == i) {
		ps->next++;
		pthread_mutex_unlock(&ps->mu);
		make(ps, i);
		pthread_mutex_lock(&ps->mu);
	}
	while (!ps->p[i].done)
		pthread_cond_wait(&ps->made, &ps->mu);
	pthread_mutex_unlock(&ps->mu);
	return ps->p[i].made;
}

static int threads_for(const struct pieces_job *j, size_t count)
{
	long n = j->jobs > 0 ? j->jobs : occ_bin_default_jobs();

	if (n > MAX_THREADS)
		n = MAX_THREADS;
	if (n < 2 || count < 2)
		return 0;
	return (size_t)n < count ? (int)n : (int)count;
}

int pieces_run(const struct pieces_job *j)
{
	struct pieces ps = { j, PTHREAD_MUTEX_INITIALIZER,
			     PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER,
			     (j->n + PIECE - 1) / PIECE, 0, 0, 0, NULL };
	int n = threads_for(j, ps.count), started, stopped = 0;
	pthread_t *t;
	size_t i;

	if (n == 0)
		return -1;
	ps.ahead = (size_t)n * AHEAD;
	ps.p = calloc(ps.count, sizeof *ps.p);
	t = calloc((size_t)n, sizeof *t);
	if (!ps.p || !t) {
		free(ps.p);
		free(t);
		return -1;
	}
	for (started = 0; started < n; started++)
		if (pthread_create(&t[started], NULL, worker, &ps) != 0)
			break;
	for (i = 0; i < ps.count && !stopped; i++) {
		stopped = j->join(j->ctx, wait_for(&ps, i)) != 0;
		pthread_mutex_lock(&ps.mu);
		ps.joined = i + 1;
		if (stopped)
			ps.next = ps.count;    /* no more taken */
		pthread_cond_broadcast(&ps.room);
		pthread_mutex_unlock(&ps.mu);
	}
	while (started > 0)
		pthread_join(t[--started], NULL);
	for (; i < ps.count; i++)      /* made before the stop */
		if (ps.p[i].done && ps.p[i].made)
			j->drop(ps.p[i].made);
	free(t);
	free(ps.p);
	return stopped;
}
