/*
 * kernel_input_int.h - what the readers of kernel inputs share
 * (internal): kernel_input.c tells the kinds apart and makes each
 * kernel's shape, kernel_input_fd.c takes a descriptor's bytes as they
 * come, kernel_input_errors.c words a failed compile's report.
 */
#ifndef OCC_KERNEL_INPUT_INT_H
#define OCC_KERNEL_INPUT_INT_H

#include "occcalc.h"
#include "util.h"

/* One read: the caller's options and callback, where failures are
 * worded, and what was read. */
struct kin_read {
	struct occ_kernels_read_opts o;   /* the caller's, as start set them */
	struct occ_kernels_held own, *held;
	occ_kernel_in_fn fn;
	void *ctx;
	int *fn_status;
	const char *input;
	struct occ_kernels_read_stats *stats;
	struct occ_kernels_diag *diag;
	int started;
	int own_status;
	struct occ_kernels_read_stats own_stats;
	size_t nbad;                 /* a directory's files not read */
	char first_bad[1024];
};

/* diag.msg as printf, with OCC_ERR_* st given back. */
OCC_INTERNAL enum occ_status kin_fail(struct kin_read *r, enum occ_status st,
				      const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The caller's start, once stats->kind is known (once). */
OCC_INTERNAL void kin_start(struct kin_read *r);
/* A binary in memory, or open on fd (path: its file, read by path). */
OCC_INTERNAL enum occ_status kin_binary_buf(struct kin_read *r,
					    const void *buf, size_t len);
OCC_INTERNAL enum occ_status kin_binary_fd(struct kin_read *r, int fd,
					   const char *path);
/* A regular file (kernel_input_fd.c), and a descriptor's bytes. */
OCC_INTERNAL enum occ_status kin_file(struct kin_read *r, const char *path);
OCC_INTERNAL enum occ_status kin_fd(struct kin_read *r, int fd);
/* Text (a report or PTX) of len bytes. */
OCC_INTERNAL enum occ_status kin_text(struct kin_read *r,
				      const unsigned char *text, size_t len);
/* A failed compile's report: OCC_ERR_SYNTAX with the one line that says
 * how many errors, where and the first; OCC_OK where it is none. */
OCC_INTERNAL enum occ_status kin_compiler_errors(struct kin_read *r,
						 const char *text, size_t len);
/* "s" unless n is 1. */
OCC_INTERNAL const char *kin_plural(long long n);

#endif
