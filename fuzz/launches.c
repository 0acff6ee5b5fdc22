/*
 * launches.c - fuzzing the launch readers (occ_launches_read_fd: occcalc's
 * JSON Lines trace and Kineto's Chrome trace, plain or gzip) and the
 * per-launch model behind them: any bytes either deliver launches whose
 * figures are within their ranges, each modelled without a crash on the
 * device the trace described, or are refused with a status and a place;
 * memory stays bounded (LeakSanitizer, -rss_limit_mb).
 */
#include <unistd.h>

#include "occcalc.h"
#include "fuzz.h"

struct seen {
	const struct occ_tables *tables;
	uint64_t launches, devices;
};

static const struct occ_tables *tables(void)
{
	static struct occ_tables *t;
	struct occ_diag d;

	if (!t && occ_tables_load(FUZZ_SRCDIR "/data/arch-tables", &t, &d) !=
	    OCC_OK)
		abort();
	return t;
}

static enum occ_status on_device(void *ctx, const struct occ_launch_device *d)
{
	struct seen *s = ctx;

	FUZZ_CHECK(memchr(d->name, '\0', sizeof d->name), "name unterminated");
	FUZZ_CHECK(d->device >= 0 && d->multiProcessorCount >= 0,
		   "device %d, %d SMs", d->device, d->multiProcessorCount);
	s->devices++;
	return OCC_OK;
}

static void model(const struct seen *s, const struct occ_launch_record *l,
		  const struct occ_launch_device *d)
{
	struct occ_launch_model m;
	struct occ_headroom h;
	struct occ_arch a;

	if (occ_launch_arch(s->tables, d, &a) != OCC_OK ||
	    occ_launch_compute(&a, d->multiProcessorCount, l, NULL, &m) !=
	    OCC_OK)
		return;
	FUZZ_CHECK(m.result.blocks_per_sm >= 0 &&
		   m.result.blocks_per_sm <= a.max_blocks_per_sm,
		   "blocks per SM %d", m.result.blocks_per_sm);
	FUZZ_CHECK(m.result.warps_per_sm <= m.result.max_warps_per_sm,
		   "warps %d of %d", m.result.warps_per_sm,
		   m.result.max_warps_per_sm);
	FUZZ_CHECK(!m.has_waves || (m.waves.waves >= 1 &&
		   m.waves.tail_blocks < m.waves.per_wave), "waves");
	occ_launch_headroom(&a, l, &h);
}

static enum occ_status on_launch(void *ctx, const struct occ_launch_record *l,
				 const struct occ_launch_device *d)
{
	struct seen *s = ctx;
	int i;

	FUZZ_CHECK(strlen(l->kernel) < (1u << 24) && l->mangled,
		   "names");
	for (i = 0; i < 3; i++)
		FUZZ_CHECK(l->grid[i] >= 0 && l->grid[i] <= INT32_MAX &&
			   l->block[i] >= 0 && l->block[i] <= INT32_MAX &&
			   l->cluster[i] >= -1 && l->cluster[i] <= INT32_MAX,
			   "dimension %d", i);
	FUZZ_CHECK(l->regs >= 0 && l->regs <= 65535, "regs %d", l->regs);
	FUZZ_CHECK(l->smem_total >= 0 &&
		   (uint64_t)l->smem_total <= 2 * OCC_BYTES_MAX,
		   "shared memory %lld", (long long)l->smem_total);
	FUZZ_CHECK(l->carveout_requested >= -1 && l->carveout_requested <= 100,
		   "carveout %d", l->carveout_requested);
	s->launches++;
	if (d)
		model(s, l, d);
	return OCC_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct occ_launch_callbacks cb = { on_device, on_launch };
	struct seen s = { tables(), 0, 0 };
	struct occ_launch_file info;
	struct occ_diag diag;
	enum occ_status st;
	FILE *f = tmpfile();

	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fflush(f);
	rewind(f);
	st = occ_launches_read_fd(fileno(f), "input", &cb, &s, &info, &diag);
	fclose(f);
	FUZZ_CHECK(info.launches == s.launches && info.devices == s.devices,
		   "%llu launches delivered, %llu counted",
		   (unsigned long long)s.launches,
		   (unsigned long long)info.launches);
	FUZZ_CHECK(memchr(diag.key, '\0', sizeof diag.key) && diag.line >= 0,
		   "diag");
	if (st != OCC_OK)
		FUZZ_CHECK(st != OCC_ERR_NOMEM || size > (1u << 20),
			   "out of memory on %zu bytes", size);
	/* A Kineto trace cut short is read up to the cut, which is the end
	 * of the text: of the input itself where it is not gzip. Being cut
	 * is no error; an event before the cut that lacks a key or holds a
	 * bad value is (its devices read first, the file was read to the
	 * cut once already). */
	if (info.format == OCC_LAUNCH_FORMAT_KINETO && info.cut_short)
		FUZZ_CHECK(st == OCC_OK ? (size >= 2 && data[0] == 0x1f &&
					   data[1] == 0x8b) ||
				info.bytes == size
			   : st == OCC_ERR_MISSING_KEY ||
				st == OCC_ERR_BAD_VALUE || st == OCC_ERR_RANGE,
			   "cut short: status %d, at byte %llu of %zu", st,
			   (unsigned long long)info.bytes, size);
	return 0;
}
