/* binary-bad.c - the binary reader on hostile input: truncated and
 * corrupt files, offsets past the end, data that does not decompress, a
 * section count in the millions, a FIFO, a directory with a bad file.
 * Each is refused with a message saying what is wrong; nothing crashes,
 * blocks or reports a kernel it did not read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "occcalc.h"
#include "tap.h"

static char fixtures[1024];

static int count(const struct occ_bin_kernel *k, void *ctx)
{
	(void)k;
	(*(int *)ctx)++;
	return 0;
}

static unsigned char *load(const char *file, size_t *len)
{
	char path[1200];
	FILE *f;
	unsigned char *buf;
	long n;

	snprintf(path, sizeof path, "%s/%s", fixtures, file);
	if (!(f = fopen(path, "rb")) || fseek(f, 0, SEEK_END) ||
	    (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) ||
	    !(buf = malloc((size_t)n)) || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		if (f)
			fclose(f);
		return NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static enum occ_status read_buf(const void *b, size_t n, struct occ_bin_diag *d,
				int *kernels)
{
	int fs;

	*kernels = 0;
	return occ_bin_read(b, n, "buf", count, kernels, &fs, d);
}

/* Every cut of the file, every `step` bytes, is refused as corrupt. */
static void truncations(const char *file, size_t step)
{
	size_t len, bad = 0, tried = 0;
	unsigned char *b = load(file, &len);
	struct occ_bin_diag d;
	int k;

	if (!b) {
		tap_ok(0, "%s is read", file);
		return;
	}
	/* From 4 bytes on: the magic number is there to recognise. */
	for (size_t cut = 4; cut < len; cut += step, tried++)
		if (read_buf(b, cut, &d, &k) != OCC_ERR_CORRUPT || !d.what[0]) {
			if (!bad++)
				tap_diag("cut at %zu: %s", cut, d.what);
		}
	tap_ok(bad == 0 && tried > 10, "%s cut at %zu places: each refused as "
	       "truncated or malformed, with a message", file, tried);
	free(b);
}

/* The fatbin at the start of buf: its first entry's fields. */
static unsigned char *first_entry(unsigned char *b)
{
	return b + 16;
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void expect(enum occ_status got, const struct occ_bin_diag *d,
		   enum occ_status want, const char *words, const char *what)
{
	int ok = got == want && strstr(d->what, words) != NULL;

	tap_ok(ok, "%s", what);
	if (!ok)
		tap_diag("got %s: %s", occ_strerror(got), d->what);
}

static void corrupt_fatbins(void)
{
	size_t len;
	unsigned char *b = load("none.fatbin", &len);
	struct occ_bin_diag d;
	int k;

	if (!b)
		return;
	put64(first_entry(b) + 8, len);          /* payload size past the end */
	expect(read_buf(b, len, &d, &k), &d, OCC_ERR_CORRUPT, "runs past the end",
	       "a fatbin entry whose size runs past the end is refused");
	free(b);
	b = load("none.fatbin", &len);
	put64(b + 8, (uint64_t)1 << 40);         /* the fatbin's own size */
	expect(read_buf(b, len, &d, &k), &d, OCC_ERR_CORRUPT, "runs past the end",
	       "a fatbin larger than its file is refused");
	free(b);
	b = load("size.fatbin", &len);
	memset(first_entry(b) + 64 + 20, 0x5a, 64);   /* inside the frame */
	expect(read_buf(b, len, &d, &k), &d, OCC_ERR_CORRUPT, "does not decompress",
	       "a Zstandard entry that does not decompress is refused");
	free(b);
	b = load("speed.fatbin", &len);
	memset(first_entry(b) + 64 + 8, 0xff, 16);
	expect(read_buf(b, len, &d, &k), &d, OCC_ERR_CORRUPT, "does not decompress",
	       "an LZ4 entry that does not decompress is refused");
	free(b);
	b = load("speed.fatbin", &len);
	put64(first_entry(b) + 56, (uint64_t)1 << 40);
	expect(read_buf(b, len, &d, &k), &d, OCC_ERR_CORRUPT, "implausible",
	       "an entry claiming to expand to a terabyte is refused");
	free(b);
}

static void corrupt_elves(void)
{
	size_t len;
	unsigned char *b = load("sm_90a.cubin", &len);
	struct occ_bin_diag d;
	uint64_t shoff;
	int k;

	if (!b)
		return;
	shoff = b[0x28] | (uint64_t)b[0x29] << 8 | (uint64_t)b[0x2a] << 16;
	b[0x3c] = b[0x3d] = 0;                   /* extended numbering: */
	put64(b + shoff + 32, 5000000);          /* five million sections */
	expect(read_buf(b, len, &d, &k), &d, OCC_ERR_CORRUPT, "5000000 sections",
	       "a section count in the millions is refused, naming it");
	free(b);
	b = load("sm_90a.cubin", &len);
	put64(b + 0x28, (uint64_t)len + 64);
	expect(read_buf(b, len, &d, &k), &d, OCC_ERR_CORRUPT, "past the end",
	       "a section table past the end of the file is refused");
	free(b);
	b = load("sm_90a.cubin", &len);
	shoff = b[0x28] | (uint64_t)b[0x29] << 8 | (uint64_t)b[0x2a] << 16;
	put64(b + shoff + 64 * 3 + 24, (uint64_t)len);   /* .symtab offset */
	expect(read_buf(b, len, &d, &k), &d, OCC_ERR_CORRUPT, "lies past the end",
	       "a section whose data lies past the end is refused");
	free(b);
}

static void not_binaries(void)
{
	struct occ_bin_diag d;
	int k;

	expect(read_buf("hello, world\n", 13, &d, &k), &d, OCC_ERR_NOT_BINARY,
	       "not a cubin", "text is no binary");
	expect(read_buf("", 0, &d, &k), &d, OCC_ERR_NOT_BINARY, "not a cubin",
	       "an empty file is no binary");
}

static int stop_at_first(const struct occ_bin_kernel *k, void *ctx)
{
	(void)k;
	(*(int *)ctx)++;
	return 7;
}

static void callback_stops(void)
{
	char path[1200];
	struct occ_bin_diag d;
	int n = 0, fs = 0;
	enum occ_status st;

	snprintf(path, sizeof path, "%s/libkernels.so", fixtures);
	st = occ_bin_read_file(path, stop_at_first, &n, &fs, &d);
	tap_ok(st == OCC_OK && n == 1 && fs == 7, "a callback's nonzero "
	       "return stops the read and is handed back");
}

static void files_and_dirs(void)
{
	char dir[] = "/tmp/occcalc-bin-XXXXXX", p[1300], cmd[8192];
	struct occ_bin_diag d;
	struct occ_bin_walk_stats ws;
	int n = 0, fs;
	enum occ_status st;

	if (!mkdtemp(dir)) {
		tap_ok(0, "a temporary directory");
		return;
	}
	snprintf(p, sizeof p, "%s/fifo", dir);
	mkfifo(p, 0600);
	st = occ_bin_read_file(p, count, &n, &fs, &d);
	expect(st, &d, OCC_ERR_IO, "not a regular file",
	       "a FIFO is refused without blocking");
	snprintf(cmd, sizeof cmd, "mkdir %s/sub && cp %s/sm_75.cubin %s/sub/ && "
		 "head -c 5000 %s/sm_80.cubin >%s/bad.cubin && echo '{}' "
		 ">%s/meta.json", dir, fixtures, dir, fixtures, dir, dir);
	if (system(cmd) != 0) {
		tap_ok(0, "the directory is made");
		return;
	}
	st = occ_bin_walk(dir, count, NULL, &n, &fs, &ws, &d);
	tap_ok(st == OCC_OK && n == 22 && ws.files_read == 1 &&
	       ws.files_bad == 2 && ws.files_skipped == 1, "a directory walk "
	       "reads the good cubin (22 kernels), reports the truncated one "
	       "and the FIFO, skips the JSON (read %d, bad %d, skipped %d)",
	       ws.files_read, ws.files_bad, ws.files_skipped);
	snprintf(p, sizeof p, "%s/none", dir);
	tap_ok(occ_bin_walk(p, count, NULL, &n, &fs, &ws, &d) == OCC_ERR_IO,
	       "a missing directory is refused");
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		tap_diag("could not remove %s", dir);
}

int main(void)
{
	const char *t = getenv("T");

	if (!t) {
		tap_skip_all("needs T (run by make check)");
		return 0;
	}
	snprintf(fixtures, sizeof fixtures, "%s/fixtures/bin", t);
	truncations("sm_90a.cubin", 997);
	truncations("none.fatbin", 4999);
	truncations("kernels.o", 9973);
	if (occ_bin_has_zstd())
		truncations("size.fatbin", 997);
	truncations("speed.fatbin", 1999);
	corrupt_fatbins();
	corrupt_elves();
	not_binaries();
	callback_stops();
	files_and_dirs();
	tap_plan(tap_n);
	return tap_done();
}
