/*
 * kernels_triton.c - --kernels DIR on a Triton cache: the launch the
 * library reads for each cubin from Triton's metadata
 * (occ_triton_entry_read) attached to its kernel, or its warning said;
 * the block and dynamic shared memory its rows take, and the note under
 * the text table.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kernels.h"

/* The launch attached to k: in the list's copy of its rare fields. */
static void attach(struct kernel_list *l, struct kernel_info *k,
		   const struct occ_triton_entry *e)
{
	struct occ_triton_entry *L = malloc(sizeof *L);
	struct kernel_more more = *kernel_more(k);

	if (!L)
		die("out of memory");
	*L = *e;
	more.launch = L;
	kernels_more_set(l, k, &more);
}

void kernels_triton(struct kernel_list *l, size_t first, size_t n,
		    int in_cubin, const char *cubin)
{
	struct kernel_info *k = &l->k[first];
	struct occ_kernels_diag d;
	struct occ_triton_entry e;

	if (!n || k->ptx_only || k->source != OCC_KSRC_CUBIN)
		return;
	if (occ_triton_entry_read(cubin, k->mangled, in_cubin, &e, &d) ==
	    OCC_OK)
		attach(l, k, &e);
	else if (*d.msg)
		warn("%s", d.msg);
}

static const struct seq *one(struct seq *s, struct seq_range *r,
			     uint64_t v)
{
	memset(r, 0, sizeof *r);
	r->start = r->end = v;
	r->step = 1;
	s->ranges = r;
	s->n = 1;
	s->is_sweep = 0;
	return s;
}

void kernels_launch(const struct options *o, const struct kernel_info *ki,
		    struct seq *block, struct seq_range *br,
		    const struct seq **blocks, const struct seq **smem,
		    struct seq *dyn, struct seq_range *dr)
{
	uint64_t b = 0, d = 0;
	unsigned set = occ_kernel_row_launch(kernel_more(ki)->launch,
					     o->have_block,
					     option_given(o, "smem"), &b, &d);

	*blocks = set & OCC_KERNEL_LAUNCH_BLOCK ? one(block, br, b) : &o->block;
	*smem = set & OCC_KERNEL_LAUNCH_SMEM ? one(dyn, dr, d) : &o->smem;
}

void kernels_triton_note(struct out *out, const struct kernel_list *l,
			 const struct options *o)
{
	char line[512];
	size_t i, n = 0;
	int smem = option_given(o, "smem");

	for (i = 0; i < l->n; i++)
		n += kernel_more(&l->k[i])->launch != NULL;
	if (!n)
		return;
	snprintf(line, sizeof line, "\nTriton: %zu kernel%s as Triton launches "
		 "%s (its cache's metadata): %s, %s.\n", n, plural(n),
		 n == 1 ? "it" : "them",
		 o->have_block ? "the block --block gives"
		 : "a block of 32 x num_warps threads",
		 smem ? "the dynamic shared memory --smem gives"
		 : "its \"shared\" bytes of dynamic shared memory");
	out_text(out, line);
}
