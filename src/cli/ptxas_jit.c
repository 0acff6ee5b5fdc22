/*
 * ptxas_jit.c - --ptxas-jit: where the image the driver loads is PTX (it
 * compiles it when the module is loaded), the resources the toolkit's
 * ptxas gives for that GPU, as a prediction of the driver's compiler. On
 * an H100 the two agreed for all 608 kernels of 10 PTX files of cuSOLVER
 * and cuSPARSE (docs/image-choice.md); the driver's own answer is --api's.
 *
 * ptxas (PTXAS, else the one on PATH) compiles the PTX text, written to a
 * temporary file, with -v; its report is read as any ptxas report
 * (occ_usage_parse).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* ptxas -arch=ARCH -v -o /dev/null PTX, its output into fd out; 0 when it
 * exited 0. */
static int run_ptxas(const char *arch, const char *ptx, int out)
{
	const char *ptxas = getenv("PTXAS");
	char opt[32];
	pid_t pid;
	int status;

	snprintf(opt, sizeof opt, "-arch=%s", arch);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(out, STDOUT_FILENO);
		dup2(out, STDERR_FILENO);
		execlp(ptxas && *ptxas ? ptxas : "ptxas", "ptxas", opt, "-v",
		       "-o", "/dev/null", ptx, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int keep_usage(const struct occ_usage *u, void *ctx)
{
	struct ptxas_jit *j = ctx;
	struct ptxas_kernel *k;

	k = realloc(j->k, (j->n + 1) * sizeof *k);
	if (!k)
		die("out of memory");
	j->k = k;
	k = &j->k[j->n++];
	if (!(k->mangled = strdup(u->mangled)))
		die("out of memory");
	k->regs = u->regs;
	k->static_smem = (int64_t)u->static_smem;
	k->stack = (int64_t)u->stack;
	k->barriers = u->barriers;
	return 0;
}

void ptxas_jit_clear(struct ptxas_jit *j)
{
	size_t i;

	for (i = 0; i < j->n; i++)
		free(j->k[i].mangled);
	free(j->k);
	j->k = NULL;
	j->n = 0;
	j->file = j->text = NULL;
	j->fatbin_offset = -1;
}

/* Compiles text for arch into j's table; 0, or -1 with why in err. */
static int compile(struct ptxas_jit *j, const char *text, size_t len,
		   const char *arch, char *err, size_t errn)
{
	char ptx[] = "/tmp/occcalc-ptx.XXXXXX", log[] = "/tmp/occcalc-log.XXXXXX";
	int fp = mkstemp(ptx), fl = fp < 0 ? -1 : mkstemp(log), rc = -1, fs;
	struct occ_diag d;
	FILE *f = NULL;

	/* A fatbin's PTX ends in NUL padding, which ptxas takes for text. */
	while (len && text[len - 1] == '\0')
		len--;
	if (fp < 0 || fl < 0)
		snprintf(err, errn, "cannot make a temporary file: %s",
			 strerror(errno));
	else if (write_all(fp, text, len) != 0)
		snprintf(err, errn, "cannot write %s: %s", ptx, strerror(errno));
	else if (run_ptxas(arch, ptx, fl) != 0)
		snprintf(err, errn, "ptxas -arch=%s failed (is the toolkit's "
			 "ptxas on PATH, or PTXAS set?)", arch);
	else if (!(f = fopen(log, "r")))
		snprintf(err, errn, "cannot read ptxas's report");
	else if (occ_usage_parse(f, "ptxas", keep_usage, j, &fs, &d) != OCC_OK)
		snprintf(err, errn, "ptxas's report cannot be read");
	else
		rc = 0;
	if (f)
		fclose(f);
	if (fp >= 0) {
		close(fp);
		unlink(ptx);
	}
	if (fl >= 0) {
		close(fl);
		unlink(log);
	}
	return rc;
}

const struct ptxas_kernel *ptxas_jit_find(struct ptxas_jit *j,
					  const struct occ_bin_kernel *b,
					  int cc, char *err, size_t errn)
{
	char arch[16];
	size_t i, n = strlen(b->arch);

	if (j->file != b->file || j->fatbin_offset != b->fatbin_offset ||
	    j->text != b->ptx_text) {
		ptxas_jit_clear(j);
		j->file = b->file;
		j->fatbin_offset = b->fatbin_offset;
		j->text = b->ptx_text;
		/* Arch-specific PTX (compute_90a) compiles for sm_90a. */
		snprintf(arch, sizeof arch, "sm_%d%s", cc,
			 n && b->arch[n - 1] == 'a' ? "a" : "");
		j->failed = compile(j, b->ptx_text, b->ptx_len, arch, err,
				    errn) != 0;
	}
	if (j->failed)
		return NULL;
	for (i = 0; i < j->n; i++)
		if (strcmp(j->k[i].mangled, b->mangled) == 0)
			return &j->k[i];
	snprintf(err, errn, "ptxas reported no kernel %s", b->mangled);
	return NULL;
}
