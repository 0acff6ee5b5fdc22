/* binary.c - the binary reader (occ_bin_read): any bytes either read as
 * kernels whose fields are sane or are refused with a status and a message
 * saying why; never a crash, a hang or a read outside the buffer. Read
 * again on three threads, the same kernels come in the same order, and
 * the same refusal. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "occcalc.h"
#include "fuzz.h"

/* What a read delivered, folded in order (FNV-1a). */
struct seen {
	uint64_t hash, n;
};

static void fold(struct seen *s, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		s->hash = (s->hash ^ b[i]) * 0x100000001b3ull;
}

static int sane(const struct occ_bin_kernel *k, void *ctx)
{
	struct seen *s = ctx;

	s->n++;
	fold(s, k->mangled, strlen(k->mangled));
	fold(s, k->arch, sizeof k->arch);
	fold(s, &k->regs, sizeof k->regs);
	fold(s, &k->shared_section, sizeof k->shared_section);
	fold(s, &k->fatbin_offset, sizeof k->fatbin_offset);
	FUZZ_CHECK(k->mangled && k->mangled[0], "a kernel without a name");
	FUZZ_CHECK(memchr(k->arch, '\0', sizeof k->arch), "arch unterminated");
	FUZZ_CHECK(k->cc_major >= 1 && k->cc_minor >= 0 && k->cc_minor <= 9,
		   "compute capability %d.%d", k->cc_major, k->cc_minor);
	/* A PTX file states the shared memory its entries declare. */
	if (k->ptx_only && k->container == OCC_BIN_PTX)
		FUZZ_CHECK(k->regs == -1 && k->shared_section >= 0 &&
			   (uint64_t)k->shared_section <= OCC_BYTES_MAX,
			   "a PTX file's entry: regs %d, shared %lld", k->regs,
			   (long long)k->shared_section);
	else if (k->ptx_only)
		FUZZ_CHECK(k->regs == -1 && k->shared_section == -1,
			   "a PTX entry with resources");
	else
		FUZZ_CHECK(k->regs >= 0 && k->regs <= OCC_MAX_REGS_ANY_ARCH &&
			   k->barriers >= 0 && k->shared_section >= 0,
			   "regs %d, barriers %d, shared %lld", k->regs,
			   k->barriers, (long long)k->shared_section);
	return 0;
}

/* The same bytes read for a 9.0 device (one image of each fatbin, chosen
 * from the entries' headers), counted: the same guarantees, and a kernel
 * count that is what the callback saw; on three threads, the same. */
static int sane_counted(const struct occ_bin_kernel *k, void *ctx)
{
	FUZZ_CHECK(k->image >= OCC_IMAGE_ALL && k->image <= OCC_IMAGE_BESIDE &&
		   k->images_run <= k->images, "image %d, %d of %d run",
		   (int)k->image, k->images_run, k->images);
	return sane(k, ctx);
}

static enum occ_status gpu_read(const uint8_t *data, size_t size, int jobs,
				struct seen *seen, struct occ_bin_contents *n,
				struct occ_bin_diag *d)
{
	struct occ_bin_opts o = { jobs, NULL, NULL, 9, 0, n, 1 };
	int fs;

	return occ_bin_read_opts(data, size, "fuzz", &o, sane_counted, seen,
				 &fs, d);
}

static int read_for_gpu(const uint8_t *data, size_t size)
{
	struct occ_bin_contents n, nj;
	struct occ_bin_diag d, dj;
	struct seen one = { 0xcbf29ce484222325ull, 0 }, three = one;
	enum occ_status st = gpu_read(data, size, 1, &one, &n, &d);
	enum occ_status stj = gpu_read(data, size, 3, &three, &nj, &dj);

	FUZZ_CHECK(st == OCC_OK || d.what[0], "a refusal that says not why");
	FUZZ_CHECK(n.kernels == one.n, "%llu kernels counted, %llu seen",
		   (unsigned long long)n.kernels, (unsigned long long)one.n);
	FUZZ_CHECK(stj == st && three.n == one.n && three.hash == one.hash &&
		   memcmp(&n, &nj, sizeof n) == 0,
		   "for a 9.0 device three threads read otherwise: %d, %llu "
		   "kernels; one: %d, %llu", stj, (unsigned long long)three.n,
		   st, (unsigned long long)one.n);
	return 0;
}

/* The same bytes read from a file on three threads, where images are read
 * from the file into the arena (whole Zstandard frames decompressed in
 * place, large ones streamed): what a read from memory gives. */
static void read_from_file(const uint8_t *data, size_t size,
			   enum occ_status st, const struct seen *mem,
			   const struct occ_bin_diag *md)
{
	char path[] = "/tmp/occcalc-fuzz-XXXXXX";
	struct occ_bin_opts jobs = { 3, NULL, NULL, 0, 0, NULL, 1 };
	struct seen f = { 0xcbf29ce484222325ull, 0 };
	struct occ_bin_diag d;
	enum occ_status stf;
	int fd = mkstemp(path), fs;

	if (fd < 0)
		return;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return;
	}
	close(fd);
	stf = occ_bin_read_file_opts(path, &jobs, sane, &f, &fs, &d);
	unlink(path);
	FUZZ_CHECK(stf == st && f.n == mem->n && f.hash == mem->hash,
		   "read from a file otherwise: %d, %llu kernels; from "
		   "memory: %d, %llu", stf, (unsigned long long)f.n, st,
		   (unsigned long long)mem->n);
	FUZZ_CHECK(st == OCC_OK || (d.offset == md->offset &&
				    strcmp(d.what, md->what) == 0),
		   "a file refused otherwise: %s; memory: %s", d.what,
		   md->what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct occ_bin_diag d, dj;
	struct occ_bin_opts jobs = { 3, NULL, NULL, 0, 0, NULL, 1 };
	struct seen one = { 0xcbf29ce484222325ull, 0 }, three = one;
	int fs;
	enum occ_status st = occ_bin_read(data, size, "fuzz", sane, &one, &fs,
					  &d), stj;

	FUZZ_CHECK(memchr(d.what, '\0', sizeof d.what), "diag unterminated");
	FUZZ_CHECK(st == OCC_OK || d.what[0], "a refusal that says not why");
	stj = occ_bin_read_opts(data, size, "fuzz", &jobs, sane, &three, &fs,
				&dj);
	FUZZ_CHECK(stj == st && one.n == three.n && one.hash == three.hash,
		   "three threads read otherwise: %d, %llu kernels; one: %d, "
		   "%llu", stj, (unsigned long long)three.n, st,
		   (unsigned long long)one.n);
	FUZZ_CHECK(st == OCC_OK || (dj.offset == d.offset &&
				    strcmp(dj.what, d.what) == 0),
		   "three threads refuse otherwise: %s", dj.what);
	read_from_file(data, size, st, &one, &d);
	return read_for_gpu(data, size);
}
