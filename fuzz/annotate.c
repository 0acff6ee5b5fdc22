/*
 * annotate.c - fuzzing occ_launches_annotate_file (--annotate): any bytes
 * are refused with a status, or written back with a member added to the
 * args of each kernel event delivered; the text written is the input's
 * with those members in it, so it holds at least one member a launch of
 * a Kineto trace, and nothing for an occcalc trace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "occcalc.h"
#include "fuzz.h"

#define MEMBER "\"occcalc\":{\"fuzz\":1}"

struct out {
	uint64_t launches, bytes, members;
	size_t matched;                   /* of MEMBER, across writes */
};

static enum occ_status on_device(void *ctx, const struct occ_launch_device *d)
{
	(void)ctx;
	(void)d;
	return OCC_OK;
}

static enum occ_status on_launch(void *ctx, const struct occ_launch_record *l,
				 const struct occ_launch_device *d)
{
	(void)l;
	(void)d;
	((struct out *)ctx)->launches++;
	return OCC_OK;
}

static enum occ_status members(void *ctx, const char **text, size_t *len)
{
	(void)ctx;
	*text = MEMBER;
	*len = sizeof MEMBER - 1;
	return OCC_OK;
}

static enum occ_status write_out(void *ctx, const void *p, size_t n)
{
	struct out *o = ctx;
	const char *s = p;
	size_t i;

	o->bytes += n;
	for (i = 0; i < n; i++) {
		o->matched = s[i] == MEMBER[o->matched] ? o->matched + 1
			     : s[i] == MEMBER[0];
		if (o->matched == sizeof MEMBER - 1) {
			o->members++;
			o->matched = 0;
		}
	}
	return OCC_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct occ_launch_callbacks cb = { on_device, on_launch };
	char path[] = "/tmp/occcalc-fuzz-annotate.XXXXXX";
	struct out o = { 0, 0, 0, 0 };
	struct occ_annotate_sink sink = { members, write_out, &o };
	struct occ_launch_file info;
	struct occ_diag diag;
	enum occ_status st;
	int fd = mkstemp(path);

	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
	st = occ_launches_annotate_file(path, &cb, &o, &sink, &info, &diag);
	unlink(path);
	FUZZ_CHECK(memchr(diag.key, '\0', sizeof diag.key), "diag");
	if (st == OCC_OK && info.format == OCC_LAUNCH_FORMAT_KINETO)
		FUZZ_CHECK(o.members >= o.launches, "%llu members for %llu "
			   "launches", (unsigned long long)o.members,
			   (unsigned long long)o.launches);
	if (info.format == OCC_LAUNCH_FORMAT_OCCCALC)
		FUZZ_CHECK(o.bytes == 0, "%llu bytes written of an occcalc "
			   "trace", (unsigned long long)o.bytes);
	return 0;
}
