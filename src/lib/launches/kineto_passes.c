/*
 * kineto_passes.c - a Kineto trace whose deviceProperties follow its
 * traceEvents (a writer of another order, a trace edited and dumped
 * again) would give its launches no device. A regular file is read again
 * from where it started for its devices alone, then once more for its
 * launches, those already delivered skipped: memory stays one event's.
 * A pipe cannot be: the file's information says so.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "launches_int.h"
#include "zin.h"

/* Back to where the input started, to read it again. */
static enum occ_status rewind_input(struct launch_read *r, struct occ_zin *z)
{
	occ_zin_close(z);
	if (lseek(r->fd, (off_t)r->start, SEEK_SET) < 0) {
		r->err_no = errno;
		return launch_fail(r, OCC_ERR_IO, 0, 0, "");
	}
	return occ_zin_open(z, r->fd) == 0 ? OCC_OK : launch_input_fail(r, z);
}

/* A trace whose deviceProperties follow its traceEvents (a trace
 * re-serialised with sorted keys, a writer of another order) would give
 * its launches no device: a regular file is read again from its start
 * for its devices alone, then once more for its launches, those already
 * delivered skipped. Memory stays one event's. */
enum occ_status kineto_read(struct launch_read *r, struct occ_zin *z)
{
	enum occ_status st;
	uint64_t delivered;
	int restart;

	st = kineto_pass(r, z, 0, &restart);
	if (st != OCC_OK || !restart)
		return st;
	delivered = r->info->launches;
	r->devices_first = 1;
	if ((st = rewind_input(r, z)) != OCC_OK ||
	    (st = kineto_pass(r, z, 1, &restart)) != OCC_OK ||
	    (st = rewind_input(r, z)) != OCC_OK)
		return st;
	/* The devices are delivered again, and counted so (what the caller
	 * was given); the launches, skipped up to where the first pass
	 * stopped, are not. */
	r->info->launches = r->info->skipped = 0;
	r->info->kernels_left_out = r->info->estimates_out_of_range = 0;
	r->info->devices_reread = 1;
	r->skip = delivered;
	return kineto_pass(r, z, 0, &restart);
}
