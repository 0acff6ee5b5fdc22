/*
 * kernel_image.c - which of a kernel's images the driver loads on a GPU,
 * and what --arch keeps, for images no fatbin chose among (a cubin, a
 * compiler report's rows): whether an image runs there (CUDA's binary
 * compatibility, occ_bin_image_runs), how well it suits it, and why a
 * fatbin's choice was made, in a sentence.
 */
#include <string.h>

#include "occcalc.h"

/* The target's suffix: 'a' (arch-specific), 'f' (family), or 0. */
static char suffix(const char *arch)
{
	size_t n = strlen(arch);

	return n && (arch[n - 1] == 'a' || arch[n - 1] == 'f') ? arch[n - 1]
	       : 0;
}

int occ_kernel_runs_on(const struct occ_kernel_image *k, int cc_major,
		       int cc_minor)
{
	struct occ_bin_image_head im;
	char s = suffix(k->arch);

	memset(&im, 0, sizeof im);
	im.ptx = k->ptx_only;
	im.sm = (unsigned)(k->cc_major * 10 + k->cc_minor);
	im.arch_specific = s == 'a';
	im.family = s == 'f';
	return occ_bin_image_runs(&im, cc_major, cc_minor);
}

int occ_arch_names_gpu(const char *want)
{
	int major, minor;

	return want && *want && !suffix(want) &&
	       occ_arch_parse_name(want, &major, &minor) == OCC_OK;
}

int occ_kernel_arch_matches(const char *want, const struct occ_kernel_image *k)
{
	char last = suffix(want);
	int major, minor;

	if (occ_arch_parse_name(want, &major, &minor) != OCC_OK)
		return 0;
	if (major != k->cc_major || minor != k->cc_minor)
		return 0;
	/* sm_90a keeps only sm_90a code; sm_90, 90 and 9.0 keep all of 9.0. */
	if (last)
		return k->arch[strlen(k->arch) - 1] == last;
	return 1;
}

int occ_kernel_arch_keeps(const char *want, const struct occ_kernel_image *k)
{
	int major, minor;

	if (!occ_arch_names_gpu(want))
		return occ_kernel_arch_matches(want, k);
	if (occ_arch_parse_name(want, &major, &minor) != OCC_OK)
		return 0;
	return occ_kernel_runs_on(k, major, minor);
}

int occ_kernel_image_rank(const struct occ_kernel_image *k, int cc_major,
			  int cc_minor)
{
	char s = suffix(k->arch);

	if (k->image == OCC_IMAGE_SASS || k->image == OCC_IMAGE_PTX)
		return 10000;
	if (k->image != OCC_IMAGE_ALL || k->relocatable ||
	    !occ_kernel_runs_on(k, cc_major, cc_minor))
		return 0;
	return (k->ptx_only ? 0 : 5000) + (k->cc_major * 10 + k->cc_minor) * 4 +
	       (s == 'a' ? 2 : s == 'f' ? 1 : 0);
}

const char *occ_kernel_image_why(const struct occ_kernel_image *k)
{
	if (k->image == OCC_IMAGE_NONE)
		return "no image of its fatbin runs on this GPU: its SASS is "
		       "for other GPUs, its PTX (if any) for later ones";
	if (k->image == OCC_IMAGE_PTX)
		return "no SASS of its fatbin runs on this GPU: the driver "
		       "compiles its newest PTX not newer than the GPU";
	if (k->image != OCC_IMAGE_SASS)
		return NULL;
	if (k->sole_image)
		return "the only image of its fatbin that runs on this GPU";
	if (suffix(k->arch) == 'a')
		return "SASS for this GPU, arch-specific: the driver loads it "
		       "before plain SASS and PTX";
	return "SASS for this GPU: the driver loads SASS before PTX";
}
