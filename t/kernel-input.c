/*
 * kernel-input.c - any input of kernels read as one
 * (occcalc/kernel_input.h): a compiler report by path, descriptor
 * (a file, a pipe) and buffer, cuobjdump's shared memory less the
 * driver's reserve, binaries with and without a GPU named, a PTX file, a
 * Triton cache's directory, the caller's start and stop, the one line
 * each failure is worded in, a Triton cache entry's launch, and which
 * image runs on a GPU.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "occcalc.h"
#include "arch.h"
#include "tap.h"

static const char *fixtures;

/* What a read handed over: counts, the first kernel, the kinds the
 * start callback saw. */
struct seen {
	int n, stop_after, starts, start_kind, before_start;
	struct occ_kernel_in first;
	char first_name[256], first_file[512];
	int images_sass, images_beside, images_none, sources[8];
};

static int count(const struct occ_kernel_in *k, void *ctx)
{
	struct seen *s = ctx;

	s->before_start += !s->starts;
	if (!s->n++) {
		s->first = *k;
		snprintf(s->first_name, sizeof s->first_name, "%s", k->mangled);
		snprintf(s->first_file, sizeof s->first_file, "%s", k->file);
	}
	s->images_sass += k->image == OCC_IMAGE_SASS;
	s->images_beside += k->image == OCC_IMAGE_BESIDE;
	s->images_none += k->image == OCC_IMAGE_NONE;
	s->sources[k->source & 7]++;
	return s->stop_after && s->n == s->stop_after ? 7 : 0;
}

static void start(enum occ_kernels_kind kind, struct occ_kernels_read_opts *o,
		  void *ctx)
{
	struct seen *s = ctx;

	s->starts++;
	s->start_kind = kind;
	o->tables = tables;
}

static const char *fixture(const char *name)
{
	static char path[4096];

	snprintf(path, sizeof path, "%s/%s", fixtures, name);
	return path;
}

/* path read with opts (tables from the start callback unless NULL). */
static enum occ_status read_path(const char *name, struct occ_kernels_read_opts *o,
				 struct seen *s, struct occ_kernels_read_stats *stats,
				 struct occ_kernels_diag *d)
{
	int fs;

	return occ_kernels_read(fixture(name), o, count, s, &fs, stats, d);
}

static void test_reports(void)
{
	struct occ_kernels_read_opts o;
	struct occ_kernels_read_stats st;
	struct occ_kernels_diag d;
	struct seen s;

	memset(&o, 0, sizeof o);
	o.start = start;
	memset(&s, 0, sizeof s);
	tap_ok(read_path("ptxas-sm90.txt", &o, &s, &st, &d) == OCC_OK &&
	       st.kind == OCC_KERNELS_REPORT && s.n == 7 && s.starts == 1 &&
	       s.start_kind == OCC_KERNELS_REPORT && !s.before_start,
	       "a ptxas report: its 7 kernels, the start called once before "
	       "the first");
	tap_ok(strstr(s.first_name, "reduce_kernelIdLi64") &&
	       s.first.source == OCC_KSRC_PTXAS && s.first.regs == 22 &&
	       s.first.static_smem == 512 && s.first.barriers == 1 &&
	       s.first.spill_stores == 0 && s.first.line > 0 &&
	       s.first.cc_major == 9 && strcmp(s.first.arch, "sm_90") == 0 &&
	       s.first.min_blocks == -1 && !s.first.bounds_known &&
	       !s.first.bin && strcmp(s.first_file, fixture("ptxas-sm90.txt")) == 0,
	       "a report's kernel: its figures, spills, line and file");

	memset(&s, 0, sizeof s);
	tap_ok(read_path("cuobjdump-sm90.txt", &o, &s, &st, &d) == OCC_OK &&
	       s.n == 7 && s.first.source == OCC_KSRC_CUOBJDUMP &&
	       s.first.static_smem == 512 && s.first.spill_stores == -1,
	       "cuobjdump's SHARED:1536 on 9.0 is 512 bytes once the "
	       "driver's reserve is out; no spills recorded");
	o.start = NULL;
	memset(&s, 0, sizeof s);
	tap_ok(read_path("cuobjdump-sm90.txt", &o, &s, &st, &d) == OCC_OK &&
	       s.first.static_smem == 1536,
	       "without tables: the figure as cuobjdump states it");

	memset(&s, 0, sizeof s);
	o.arch = "sm_86";
	tap_ok(read_path("ptxas-multi.txt", &o, &s, &st, &d) == OCC_OK &&
	       s.n == 21 && s.images_none == 14,
	       "--arch sm_86 on rows for 7.5, 8.6 and 12.0: sm_75's and "
	       "sm_120's marked as running there not");
	memset(&s, 0, sizeof s);
	o.all_images = 1;
	tap_ok(read_path("ptxas-multi.txt", &o, &s, &st, &d) == OCC_OK &&
	       s.n == 7 && !s.images_none && s.first.cc_major == 8,
	       "with all_images: --arch a filter, 8.6's rows only");
	memset(&s, 0, sizeof s);
	o.arch = "sm_90a";
	o.all_images = 0;
	tap_ok(read_path("ptxas-multi.txt", &o, &s, &st, &d) == OCC_OK &&
	       s.n == 0, "a suffixed target keeps only its own code: none");
}

/* The report's bytes written to a pipe by a child. */
static int pipe_of(const char *path, pid_t *child)
{
	int p[2];

	if (pipe(p) != 0 || (*child = fork()) < 0)
		return -1;
	if (*child == 0) {
		char buf[4096];
		ssize_t n;
		int fd = open(path, O_RDONLY);

		close(p[0]);
		while (fd >= 0 && (n = read(fd, buf, sizeof buf)) > 0)
			if (write(p[1], buf, (size_t)n) != n)
				break;
		_exit(0);
	}
	close(p[1]);
	return p[0];
}

static void test_descriptors(void)
{
	struct occ_kernels_read_opts o;
	struct occ_kernels_read_stats st;
	struct occ_kernels_diag d;
	struct occ_kernels_held held;
	struct seen s;
	pid_t child;
	int fd, fs;
	FILE *f;
	char *buf;
	long len;

	memset(&o, 0, sizeof o);
	memset(&s, 0, sizeof s);
	fd = open(fixture("ptxas-sm90.txt"), O_RDONLY);
	tap_ok(occ_kernels_read_fd(fd, "<stdin>", &o, count, &s, &fs, &st, &d) ==
	       OCC_OK && s.n == 7 && strcmp(s.first_file, "<stdin>") == 0,
	       "a descriptor on a file: read as the file, named as given");
	close(fd);

	memset(&s, 0, sizeof s);
	memset(&held, 0, sizeof held);
	o.hold_input = 1;
	o.held = &held;
	fd = pipe_of(fixture("ptxas-sm90.txt"), &child);
	tap_ok(fd >= 0 && occ_kernels_read_fd(fd, "<stdin>", &o, count, &s, &fs,
					      &st, &d) == OCC_OK &&
	       s.n == 7 && held.input && held.input_len > 1000 && !held.text &&
	       memcmp(held.input, "ptxas info", 10) == 0,
	       "a pipe's bytes held for the caller where it asks");
	close(fd);
	waitpid(child, NULL, 0);
	free(held.input);

	memset(&s, 0, sizeof s);
	o.hold_input = 0;
	o.held = NULL;
	fd = pipe_of(fixture("bin/sm_90a.cubin"), &child);
	tap_ok(fd >= 0 && occ_kernels_read_fd(fd, "<stdin>", &o, count, &s, &fs,
					      &st, &d) == OCC_OK &&
	       st.kind == OCC_KERNELS_BINARY && s.n > 0 &&
	       s.first.source == OCC_KSRC_CUBIN,
	       "a binary from a pipe: spooled and read as a file");
	close(fd);
	waitpid(child, NULL, 0);

	f = fopen(fixture("ptxas-sm90.txt"), "rb");
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = malloc((size_t)len);
	len = (long)fread(buf, 1, (size_t)len, f);
	fclose(f);
	memset(&s, 0, sizeof s);
	tap_ok(occ_kernels_read_buf(buf, (size_t)len, "mem", &o, count, &s, &fs,
				    &st, &d) == OCC_OK && s.n == 7,
	       "a report in a buffer");
	memset(&s, 0, sizeof s);
	s.stop_after = 2;
	tap_ok(occ_kernels_read_buf(buf, (size_t)len, "mem", &o, count, &s, &fs,
				    &st, &d) == OCC_OK && s.n == 2 && fs == 7,
	       "the callback's stop: no more kernels, its value given back");
	free(buf);
}

static void test_binaries(void)
{
	struct occ_kernels_read_opts o;
	struct occ_kernels_read_stats st;
	struct occ_kernels_diag d;
	struct seen s, all;

	memset(&o, 0, sizeof o);
	o.start = start;
	memset(&all, 0, sizeof all);
	tap_ok(read_path("bin/default.fatbin", &o, &all, &st, &d) == OCC_OK &&
	       st.kind == OCC_KERNELS_BINARY && all.n > 0 && !all.images_sass &&
	       all.first.bounds_known && all.first.bin &&
	       all.first.fatbin_offset >= 0 &&
	       all.sources[OCC_KSRC_FATBIN] == all.n,
	       "a fatbin without a GPU: every image's kernels");
	memset(&s, 0, sizeof s);
	o.bin.cc_major = 9;
	o.bin.cc_minor = 0;
	tap_ok(read_path("bin/default.fatbin", &o, &s, &st, &d) == OCC_OK &&
	       s.n < all.n && s.images_sass > 0 &&
	       s.images_sass + s.images_beside == s.n,
	       "9.0 named: the SASS the driver loads there (and the PTX "
	       "beside it, for the minimum blocks a cubin lacks)");
	memset(&o, 0, sizeof o);
	memset(&s, 0, sizeof s);
	tap_ok(read_path("ptx/kernels.ptx", &o, &s, &st, &d) == OCC_OK &&
	       st.kind == OCC_KERNELS_PTX && s.n > 0 &&
	       s.sources[OCC_KSRC_PTX] == s.n && s.first.ptx_only,
	       "a PTX file: its entries, the driver's JIT to decide");
	memset(&s, 0, sizeof s);
	o.start = start;
	tap_ok(read_path("triton-cache", &o, &s, &st, &d) == OCC_OK &&
	       st.kind == OCC_KERNELS_DIR && st.files_read >= 2 &&
	       s.start_kind == OCC_KERNELS_DIR && s.n >= 2 &&
	       strstr(s.first_file, ".cubin"),
	       "a Triton cache: its cubins walked, each kernel with its path");
}

static void test_none_why(void)
{
	struct occ_bin_contents c;
	struct occ_kernels_diag d;

	memset(&c, 0, sizeof c);
	c.fatbins = 1;
	c.ltoir = 2;
	tap_ok(occ_kernels_none_why(&c, "a.o", &d) == OCC_ERR_UNSUPPORTED &&
	       strncmp(d.msg, "a.o: no kernel to read: its 1 fatbin holds 2 "
		       "LTO-IR images (nvcc -dlto)", 57) == 0,
	       "LTO-IR only: no resources before the program runs, said so");
	c.ltoir = 0;
	c.data_fatbins = 3;
	tap_ok(occ_kernels_none_why(&c, "b.so", &d) == OCC_ERR_UNSUPPORTED &&
	       strstr(d.msg, "3 more fatbins lie in its other sections"),
	       "fatbins outside those the runtime registers: said so");
	c.kernels = 5;
	tap_ok(occ_kernels_none_why(&c, "b.so", &d) == OCC_OK && !*d.msg,
	       "kernels read and left out: nothing to say here");
}

static void test_failures(void)
{
	struct occ_kernels_read_opts o;
	struct occ_kernels_read_stats st;
	struct occ_kernels_diag d;
	struct seen s;
	char dir[] = "/tmp/occ-kin-XXXXXX";
	const char *bad = "k.cu(3): error: identifier \"x\" is undefined\n"
			  "1 error detected in the compilation of \"k.cu\".\n";
	int fs;

	memset(&o, 0, sizeof o);
	memset(&s, 0, sizeof s);
	tap_ok(read_path("no-such-file", &o, &s, &st, &d) == OCC_ERR_IO &&
	       strstr(d.msg, "no-such-file: cannot read: ") && s.n == 0,
	       "a missing file: OCC_ERR_IO, worded with its name");
	tap_ok(occ_kernels_read("/dev/null", &o, count, &s, &fs, &st, &d) ==
	       OCC_ERR_NOT_REGULAR && strstr(d.msg, "not a regular file"),
	       "a device: refused, never read");
	tap_ok(occ_kernels_read_buf("hello\n", 6, "x.txt", &o, count, &s, &fs,
				    &st, &d) == OCC_ERR_SYNTAX &&
	       strncmp(d.msg, "x.txt: no kernel resource usage found", 37) == 0,
	       "text that is no report: OCC_ERR_SYNTAX, said so");
	tap_ok(occ_kernels_read_buf(bad, strlen(bad), "b.log", &o, count, &s,
				    &fs, &st, &d) == OCC_ERR_SYNTAX &&
	       strcmp(d.msg, "b.log: the compiler reported 1 error (line 1: "
		      "k.cu(3): error: identifier \"x\" is undefined): no "
		      "kernel to read") == 0,
	       "a failed compile's report: how many errors, where, the first");
	tap_ok(occ_kernels_read_buf("\x7f" "ELF", 4, "t.o", &o, count, &s, &fs,
				    &st, &d) != OCC_OK &&
	       strncmp(d.msg, "t.o: ", 5) == 0 && strstr(d.msg, " at byte "),
	       "a truncated binary: the reader's failure, where");
	if (!mkdtemp(dir)) {
		tap_ok(0, "mkdtemp");
		return;
	}
	tap_ok(occ_kernels_read(dir, &o, count, &s, &fs, &st, &d) ==
	       OCC_ERR_NOT_BINARY && strstr(d.msg, "no cubin, fatbin or ELF "
					    "file with CUDA code found"),
	       "a directory without binaries: OCC_ERR_NOT_BINARY");
	rmdir(dir);
	tap_ok(s.n == 0, "no kernel handed over from any failed read");
	test_none_why();
}

static void test_triton(void)
{
	const char *cubin = fixture("triton-cache/triton/OT3E4PCMCDJCJIBN3AIV"
				    "OXBSYGZ77IPYEGF5GVZGROG6UYAM37YQ/"
				    "triton_bmm.cubin");
	struct occ_kernels_diag d;
	struct occ_triton_entry e;
	char path[4096];

	snprintf(path, sizeof path, "%s", cubin);
	tap_ok(occ_triton_entry_read(path, "triton_bmm", 1, &e, &d) == OCC_OK &&
	       e.launch.block == 128 && e.launch.dynamic_smem == 8192 &&
	       strcmp(e.version, "3.6.0") == 0 &&
	       strncmp(e.entry, "OT3E4PCM", 8) == 0,
	       "a Triton cache's cubin: 32 x num_warps threads, its shared "
	       "bytes, the entry named");
	tap_ok(occ_triton_entry_read(path, "other", 1, &e, &d) ==
	       OCC_ERR_INVALID_INPUT && strstr(d.msg, "Triton metadata of "
					       "kernel triton_bmm beside a cubin "
					       "whose kernel is other"),
	       "metadata of another kernel: not applied, the warning worded");
	tap_ok(occ_triton_entry_read(path, "triton_bmm", 3, &e, &d) ==
	       OCC_ERR_INVALID_INPUT && strstr(d.msg, "a cubin of 3 kernels"),
	       "a cubin of several kernels: not applied");
	snprintf(path, sizeof path, "%s", fixture("bin/sm_90a.cubin"));
	tap_ok(occ_triton_entry_read(path, "x", 1, &e, &d) ==
	       OCC_ERR_UNSUPPORTED && !*d.msg,
	       "a cubin of no cache: nothing to say");
}

static void test_images(void)
{
	struct occ_kernel_image sm80 = { "sm_80", 8, 0, 0, 0, 0, OCC_IMAGE_ALL },
		sm90a = { "sm_90a", 9, 0, 0, 0, 0, OCC_IMAGE_ALL },
		ptx80 = { "compute_80", 8, 0, 1, 0, 0, OCC_IMAGE_ALL },
		rdc = { "sm_90", 9, 0, 0, 1, 0, OCC_IMAGE_ALL },
		chosen = { "sm_90a", 9, 0, 0, 0, 0, OCC_IMAGE_SASS };

	tap_ok(occ_kernel_runs_on(&sm80, 8, 9) && !occ_kernel_runs_on(&sm80, 9, 0) &&
	       occ_kernel_runs_on(&sm90a, 9, 0) &&
	       !occ_kernel_runs_on(&sm90a, 10, 0) &&
	       occ_kernel_runs_on(&ptx80, 12, 0),
	       "binary compatibility: sm_80 SASS on 8.x, sm_90a on 9.0 only, "
	       "PTX on any later GPU");
	tap_ok(occ_arch_names_gpu("sm_90") && occ_arch_names_gpu("9.0") &&
	       !occ_arch_names_gpu("sm_90a") && !occ_arch_names_gpu("x"),
	       "--arch names a GPU, or a suffixed target's code");
	tap_ok(occ_kernel_arch_keeps("sm_89", &sm80) &&
	       !occ_kernel_arch_keeps("sm_90", &sm80) &&
	       occ_kernel_arch_keeps("sm_90", &sm90a) &&
	       !occ_kernel_arch_keeps("sm_90a", &sm80) &&
	       occ_kernel_arch_keeps("sm_90a", &sm90a) &&
	       occ_kernel_arch_matches("90", &sm90a) &&
	       !occ_kernel_arch_matches("sm_90", &sm80),
	       "--arch keeps what runs on the GPU it names, a suffixed "
	       "target only its own code");
	tap_ok(occ_kernel_image_rank(&chosen, 9, 0) >
	       occ_kernel_image_rank(&sm90a, 9, 0) &&
	       occ_kernel_image_rank(&sm90a, 9, 0) >
	       occ_kernel_image_rank(&ptx80, 9, 0) &&
	       occ_kernel_image_rank(&ptx80, 9, 0) > 0 &&
	       occ_kernel_image_rank(&sm80, 8, 9) >
	       occ_kernel_image_rank(&ptx80, 8, 9) &&
	       occ_kernel_image_rank(&sm80, 9, 0) == 0 &&
	       occ_kernel_image_rank(&rdc, 9, 0) == 0 &&
	       occ_kernel_image_rank(&sm90a, 10, 0) == 0,
	       "a fatbin's choice first, then SASS that runs before PTX; "
	       "-rdc code and what cannot run never");
	tap_ok(strstr(occ_kernel_image_why(&chosen), "arch-specific") &&
	       !occ_kernel_image_why(&sm80),
	       "why an image was chosen, in a sentence; none unchosen");
}

int main(void)
{
	static char path[4096];
	const char *t = getenv("T");

	if (!t) {
		printf("Bail out! T is not set\n");
		return 1;
	}
	snprintf(path, sizeof path, "%s/fixtures", t);
	fixtures = path;
	load_tables();
	test_reports();
	test_descriptors();
	test_binaries();
	test_failures();
	test_triton();
	test_images();
	tap_plan(tap_n);
	occ_tables_free(tables);
	return tap_done();
}
