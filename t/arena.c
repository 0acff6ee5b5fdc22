/*
 * arena.c - the memory images are read into (src/lib/arena.c): runs
 * given in whole units, in the lowest gap that holds them, and given back
 * to be written again; made as large as an image larger than it, empty.
 */
#include "bin.h"
#include "tap.h"

#define U ARENA_UNIT

static void a_run_freed_is_given_again(void)
{
	struct arena a;
	uint8_t *p, *q;

	arena_open(&a, 4 * U, 4);
	p = arena_take(&a, 3 * U);
	p[0] = 1;
	arena_give(&a, p);
	q = arena_take(&a, 2 * U);
	tap_ok(p && q == p, "a run given back is taken again, its pages "
	       "written already");
	arena_close(&a);
}

static void a_run_takes_the_lowest_gap_that_holds_it(void)
{
	struct arena a;
	uint8_t *r1, *r2, *r3, *r4, *p;

	arena_open(&a, 9 * U, 8);
	r1 = arena_take(&a, U);
	r2 = arena_take(&a, 3 * U);
	r3 = arena_take(&a, U);
	r4 = arena_take(&a, 2 * U);
	arena_take(&a, U);
	arena_give(&a, r2);          /* gap of 3 units */
	arena_give(&a, r4);          /* gap of 2 units */
	p = arena_take(&a, 2 * U);
	tap_ok(r1 == a.base && p == r2, "2 units go to the lower gap of 3, "
	       "not to the gap of 2 above it");
	p = arena_take(&a, 3 * U);
	tap_ok(p == NULL && arena_take(&a, 2 * U) == r4, "3 units then fit "
	       "nowhere; 2 go to the gap of 2");
	tap_ok(r3 && !arena_fits(&a, U + 1) && arena_fits(&a, U),
	       "with one unit left at the end, a unit fits and a byte more "
	       "does not");
	arena_close(&a);
}

static void free_bytes_not_in_one_run_do_not_fit(void)
{
	struct arena a;
	uint8_t *r[4];
	int i;

	arena_open(&a, 4 * U, 4);
	for (i = 0; i < 4; i++)
		r[i] = arena_take(&a, U);
	arena_give(&a, r[0]);
	arena_give(&a, r[2]);
	tap_ok(!arena_fits(&a, 2 * U) && !arena_take(&a, 2 * U),
	       "two free units apart hold no run of two");
	arena_give(&a, r[1]);
	tap_ok(arena_take(&a, 3 * U) == a.base,
	       "three adjoining free units hold a run of three, at the start");
	tap_ok(r[3] == a.base + 3 * U, "the runs taken one after another "
	       "lie one after another");
	arena_close(&a);
}

static void a_byte_takes_a_unit(void)
{
	struct arena a;

	arena_open(&a, 2 * U, 4);
	arena_take(&a, 1);
	arena_take(&a, 1);
	tap_ok(!arena_take(&a, 1) && arena_round(1) == U,
	       "a run of one byte takes a whole unit");
	arena_close(&a);
}

static void no_more_runs_than_readers(void)
{
	struct arena a;

	arena_open(&a, 8 * U, 2);
	arena_take(&a, U);
	arena_take(&a, U);
	tap_ok(!arena_fits(&a, U) && !arena_take(&a, U),
	       "with two readers' runs taken, a third does not fit however "
	       "much is free");
	arena_close(&a);
}

static void larger_than_the_arena_never_fits(void)
{
	struct arena a;

	arena_open(&a, 4 * U + 100, 4);
	tap_ok(a.len == 4 * U && !arena_fits(&a, 4 * U + 1) &&
	       !arena_fits(&a, UINT64_MAX) && arena_fits(&a, 4 * U),
	       "the arena is whole units; more than it never fits");
	arena_close(&a);
}

static void a_pointer_not_taken_is_ignored(void)
{
	struct arena a;
	uint8_t *p;

	arena_open(&a, 2 * U, 2);
	p = arena_take(&a, U);
	arena_give(&a, p + 1);
	tap_ok(a.nrun == 1 && arena_take(&a, U) == p + U,
	       "giving back a pointer that starts no run changes nothing");
	arena_close(&a);
}

static void threads_past_16_take_from_the_arena(void)
{
	const uint64_t MB = (uint64_t)1 << 20;

	tap_ok(arena_for(48 * MB, 16) == 48 * MB && arena_for(48 * MB, 1) ==
	       48 * MB, "up to 16 threads the arena is the budget");
	tap_ok(arena_for(48 * MB, 32) == 44 * MB, "each thread past 16 "
	       "takes 256 KB from it (32 threads: 44 MB of 48)");
	tap_ok(arena_for(48 * MB, 256) == 24 * MB && arena_for(16 * MB, 256)
	       == 16 * MB, "but it keeps 24 MB (256 threads), or all of a "
	       "smaller budget");
}

static void an_empty_arena_grows_for_a_larger_image(void)
{
	struct arena a;
	uint8_t *p;

	arena_open(&a, 4 * U, 4);
	arena_take(&a, U);
	tap_ok(arena_grow(&a, 6 * U) == -1 && a.len == 4 * U,
	       "an arena with a run taken does not grow");
	arena_close(&a);
	arena_open(&a, 4 * U, 4);
	tap_ok(arena_grow(&a, 6 * U - 1) == 0 && a.len == 6 * U &&
	       (p = arena_take(&a, 6 * U)) == a.base, "an empty arena grows "
	       "to the image's whole units, and the image takes all of it");
	p[6 * U - 1] = 1;                /* its whole length is mapped */
	arena_shrink(&a);
	tap_ok(a.len == 6 * U, "it does not shrink while the image is read");
	arena_give(&a, p);
	arena_shrink(&a);
	tap_ok(a.len == 4 * U && a.home == 4 * U && !arena_fits(&a, 4 * U + 1)
	       && arena_take(&a, 4 * U) == a.base, "given back, it is its "
	       "own length again");
	arena_close(&a);
}

static void no_arena_grows_past_its_bound(void)
{
	struct arena a;

	arena_open(&a, 4 * U, 4);
	tap_ok(arena_grow(&a, ARENA_GROW_MAX + 1) == -1 &&
	       arena_grow(&a, UINT64_MAX) == -1 && a.len == 4 * U,
	       "an image past the bound, or one whose size would wrap, leaves "
	       "the arena as it was (the image is read in memory of its own)");
	arena_close(&a);
}

/* Huge pages need a 2 MB boundary: a mapping placed anywhere would get
 * them only for the whole 2 MB pieces within it. */
static void the_arena_starts_on_a_huge_page(void)
{
	struct arena a, b;
	const uint64_t MB = (uint64_t)1 << 20;

	arena_open(&a, 56 * MB, 16);
	arena_open(&b, 3 * U, 1);        /* mapped after a, wherever it fell */
	tap_ok(a.base && b.base && (uintptr_t)a.base % (2 * MB) == 0 &&
	       (uintptr_t)b.base % (2 * MB) == 0 && a.len == 56 * MB,
	       "an arena starts on a 2 MB boundary, its length as asked");
	a.base[0] = 1;
	a.base[a.len - 1] = 1;           /* its whole length is mapped */
	arena_close(&b);
	arena_close(&a);
}

int main(void)
{
	tap_plan(20);
	a_run_freed_is_given_again();
	a_run_takes_the_lowest_gap_that_holds_it();
	free_bytes_not_in_one_run_do_not_fit();
	a_byte_takes_a_unit();
	no_more_runs_than_readers();
	larger_than_the_arena_never_fits();
	a_pointer_not_taken_is_ignored();
	threads_past_16_take_from_the_arena();
	an_empty_arena_grows_for_a_larger_image();
	no_arena_grows_past_its_bound();
	the_arena_starts_on_a_huge_page();
	return tap_done();
}
