/* binary-dump.c - every kernel libocccalc reads from binaries, as CSV: the
 * evidence behind t/gpu/binaries.sh until the CLI reads binaries itself.
 * Usage: binary-dump FILE|DIR... */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "occcalc.h"

static const char *const compression[] = { "stored", "lz4", "zstd" };
static const char *const container[] = { "", "cubin", "fatbin", "elf" };

static int row(const struct occ_bin_kernel *k, void *ctx)
{
	printf("%s,%s,%s,%s,%d,%s,%d,%lld,%d,%lld,%lld,%d;%d;%d,%d,%d;%d;%d,"
	       "%d,%d;%d;%d,%d,%lld\n", (const char *)ctx,
	       container[k->container], compression[k->compression], k->arch,
	       k->ptx_only, k->mangled, k->regs, (long long)k->shared_section,
	       k->barriers, (long long)k->frame, (long long)k->stack,
	       k->max_threads[0], k->max_threads[1], k->max_threads[2],
	       k->min_blocks, k->req_threads[0], k->req_threads[1],
	       k->req_threads[2], k->max_regs, k->cluster[0], k->cluster[1],
	       k->cluster[2], k->max_cluster_rank, (long long)k->fatbin_offset);
	return 0;
}

static int warn(enum occ_status st, const struct occ_bin_diag *d, void *ctx)
{
	(void)ctx;
	fprintf(stderr, "binary-dump: warning: %s: %s (%s, at byte %llu)\n",
		d->file, d->what, occ_strerror(st),
		(unsigned long long)d->offset);
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 0;

	puts("file,container,compression,arch,ptx_only,mangled,regs,"
	     "shared_section,barriers,frame,stack,max_threads,min_blocks,"
	     "req_threads,max_regs,cluster,max_cluster_rank,fatbin_offset");
	for (int i = 1; i < argc; i++) {
		struct occ_bin_diag d;
		struct occ_bin_walk_stats ws;
		struct stat sb;
		enum occ_status st;

		if (stat(argv[i], &sb) == 0 && S_ISDIR(sb.st_mode))
			st = occ_bin_walk(argv[i], row, warn, argv[i], NULL,
					  &ws, &d);
		else
			st = occ_bin_read_file(argv[i], row, argv[i], NULL, &d);
		if (st != OCC_OK) {
			fprintf(stderr, "binary-dump: %s: %s (%s, at byte "
				"%llu)\n", d.file, d.what, occ_strerror(st),
				(unsigned long long)d.offset);
			rc = 1;
		}
	}
	return rc;
}
