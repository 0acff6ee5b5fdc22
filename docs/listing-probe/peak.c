/* peak.c - LD_PRELOAD: the peak of live malloc'ed bytes, split by the
 * size of the allocation (< 64 KB, < 1 MB, larger), printed at exit to
 * stderr. mmap'ed memory of the program's own (the arena) is not counted.
 * Build: cc -O2 -shared -fPIC peak.c -o peak.so -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <malloc.h>
#include <stdio.h>
#include <stdatomic.h>
#include <string.h>

static _Atomic long live[3], peak_total, at_peak[3];
static void *(*m)(size_t), *(*c)(size_t, size_t), *(*r)(void *, size_t);
static void (*f)(void *);
static int cls(size_t n) { return n < 65536 ? 0 : n < (1 << 20) ? 1 : 2; }
static void add(void *p, long sign)
{
	size_t n;
	long t;
	if (!p) return;
	n = malloc_usable_size(p);
	live[cls(n)] += sign * (long)n;
	t = live[0] + live[1] + live[2];
	if (sign > 0 && t > peak_total) {
		peak_total = t;
		for (int i = 0; i < 3; i++) at_peak[i] = live[i];
	}
}
static char boot[1 << 16]; static size_t bootn;
static void init(void)
{
	m = dlsym(RTLD_NEXT, "malloc"); c = dlsym(RTLD_NEXT, "calloc");
	r = dlsym(RTLD_NEXT, "realloc"); f = dlsym(RTLD_NEXT, "free");
}
void *malloc(size_t n) { if (!m) init(); void *p = m(n); add(p, 1); return p; }
void *calloc(size_t a, size_t b)
{
	if (!c) { void *p = boot + bootn; bootn += (a * b + 15) & ~15ul; return p; }
	void *p = c(a, b); add(p, 1); return p;
}
void *realloc(void *p, size_t n)
{
	if (!r) init();
	if (p) add(p, -1);
	void *q = r(p, n);
	add(q ? q : p, 1);
	return q;
}
void free(void *p)
{
	if (!f) init();
	if ((char *)p >= boot && (char *)p < boot + sizeof boot) return;
	add(p, -1); f(p);
}
__attribute__((destructor)) static void report(void)
{
	char b[200];
	int n = snprintf(b, sizeof b, "peak malloc %ld KB: small %ld, 64K-1M %ld, large %ld KB\n",
			 peak_total >> 10, at_peak[0] >> 10, at_peak[1] >> 10, at_peak[2] >> 10);
	fwrite(b, 1, n, stderr);
}
