/*
 * imagechoice.c - which image of a fatbin the driver loads on a device,
 * decided from the entries' headers alone (nothing is decompressed).
 *
 * The rule, as measured with cuModuleLoadData on an H100 (CC 9.0, driver
 * 580.159.04; docs/image-choice.md, t/imagechoice.sh): SASS that runs on
 * the device is preferred to any PTX; among SASS, the arch-specific image
 * (sm_90a) to the plain one (sm_90); among PTX, the newest that is not newer
 * than the device, compute_90a before compute_90; between two images of the
 * same target, the first in the fatbin, except PTX of the device's own
 * version (compute_90 twice: the last). SASS of another major version never
 * runs; PTX newer than the device never runs.
 *
 * Not measured (no such device): which SASS runs on a device of a later
 * minor version of the same major, and the family-specific targets of
 * Blackwell (sm_100f, compute_120f). Those follow NVIDIA's documented
 * compatibility (CUDA C++ Programming Guide, "Binary Compatibility" and
 * "Feature Availability"): plain SASS sm_XY runs on X.Z for Z >= Y, SASS
 * sm_XYf on the devices of its family (same major, Z >= Y), sm_XYa only on
 * X.Y; PTX compute_XY on any device of X.Y or later, compute_XYf on its
 * family, compute_XYa only on X.Y. Among those that run, the newest target
 * first, then the most specific (a, f, plain), then the first in the fatbin.
 */
#include "bin.h"

/* Whether image d runs on a device of compute capability cc (major * 10 +
 * minor), SASS natively or PTX through the driver's compiler. */
static int image_runs(const struct image_desc *d, int cc)
{
	int major = d->sm / 10;

	if (d->suffix == 'a')
		return d->sm == cc;
	if (d->suffix == 'f' || !d->ptx)
		return major == cc / 10 && d->sm <= cc;
	return d->sm <= cc;
}

int occ_bin_image_runs(const struct occ_bin_image_head *im, int cc_major,
		       int cc_minor)
{
	struct image_desc d;

	d.candidate = 1;
	d.ptx = im->ptx != 0;
	d.sm = im->sm > 1000 ? 1000 : (int)im->sm;
	d.suffix = im->arch_specific ? 'a' : im->family ? 'f' : 0;
	return image_runs(&d, cc_major * 10 + cc_minor);
}

static int specificity(const struct image_desc *d)
{
	return d->suffix == 'a' ? 2 : d->suffix == 'f' ? 1 : 0;
}

/* Whether a, later in the fatbin, is preferred to b, both runnable. Of
 * two images of one target the earlier wins, except PTX of the device's
 * own version, where the later does (measured both ways round, for
 * compute_90 and for compute_80 on a 9.0 device). */
static int better(const struct image_desc *a, const struct image_desc *b,
		  int cc)
{
	if (a->ptx != b->ptx)
		return !a->ptx;
	if (a->sm != b->sm)
		return a->sm > b->sm;
	if (specificity(a) != specificity(b))
		return specificity(a) > specificity(b);
	return a->ptx && a->sm == cc;
}

int image_choose(const struct image_desc *d, size_t n, int cc,
		 enum occ_bin_image *why, int *runnable)
{
	size_t i;
	int best = -1;

	*runnable = 0;
	for (i = 0; i < n; i++) {
		if (!d[i].candidate || !image_runs(&d[i], cc))
			continue;
		++*runnable;
		if (best < 0 || better(&d[i], &d[best], cc))
			best = (int)i;
	}
	*why = best < 0 ? OCC_IMAGE_NONE
	       : d[best].ptx ? OCC_IMAGE_PTX : OCC_IMAGE_SASS;
	return best;
}
