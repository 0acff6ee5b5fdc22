/*
 * triton-launch.c - the launch Triton's launcher makes of a kernel, from
 * its cache's metadata (occ_triton_launch_of): a block of 32 x num_warps
 * threads, "shared" bytes of dynamic shared memory, and the cluster
 * older Triton's cluster_dims or num_ctas give; metadata lacking what the
 * launch needs names the key.
 */
#include <string.h>

#include "tap.h"
#include "occcalc.h"

static enum occ_status launch(const char *json, struct occ_triton_launch *L,
			      const char **missing)
{
	struct occ_triton_meta m;
	struct occ_bin_diag d;

	if (occ_triton_meta_parse(json, strlen(json), &m, &d) != OCC_OK)
		return OCC_ERR_SYNTAX;
	return occ_triton_launch_of(&m, L, missing);
}

static int lacks(const char *json, const char *key)
{
	struct occ_triton_launch L;
	const char *missing = NULL;

	return launch(json, &L, &missing) == OCC_ERR_MISSING_KEY &&
	       missing && strcmp(missing, key) == 0;
}

int main(void)
{
	struct occ_triton_launch L;
	const char *missing = "x";

	tap_plan(9);
	tap_ok(launch("{\"name\":\"k\",\"num_warps\":4,\"num_ctas\":1,"
		      "\"shared\":1024}", &L, &missing) == OCC_OK &&
	       !missing && L.block == 128 && L.dynamic_smem == 1024 &&
	       L.num_warps == 4 && L.num_ctas == 1 && L.cluster[0] == 0,
	       "num_warps 4: a block of 128 threads, shared bytes dynamic, "
	       "no cluster for one CTA");
	tap_ok(launch("{\"name\":\"k\",\"num_warps\":8,\"num_ctas\":2,"
		      "\"shared\":0}", &L, NULL) == OCC_OK &&
	       L.cluster[0] == 2 && L.cluster[1] == 1 && L.cluster[2] == 1,
	       "num_ctas 2: a cluster of 2 CTAs along x");
	tap_ok(launch("{\"name\":\"k\",\"num_warps\":8,\"num_ctas\":1,"
		      "\"shared\":0,\"cluster_dims\":[2,2,1]}", &L, NULL) ==
	       OCC_OK && L.cluster[0] == 2 && L.cluster[1] == 2 &&
	       L.cluster[2] == 1,
	       "cluster_dims of more than one CTA (Triton before 3.3) are the "
	       "cluster");
	tap_ok(launch("{\"name\":\"k\",\"num_warps\":8,\"shared\":0}", &L,
		      NULL) == OCC_OK && L.num_ctas == 1,
	       "no num_ctas: one CTA");
	tap_ok(lacks("{\"name\":\"k\",\"shared\":0}", "num_warps"),
	       "no num_warps is named");
	tap_ok(lacks("{\"name\":\"k\",\"num_warps\":0,\"shared\":0}",
		     "num_warps above 0"), "num_warps 0 is named");
	tap_ok(lacks("{\"name\":\"k\",\"num_warps\":4}", "shared"),
	       "no shared is named");
	tap_ok(lacks("{\"num_warps\":4,\"shared\":0}", "name"),
	       "no name is named");
	tap_ok(lacks("{\"name\":\"k\",\"num_warps\":4,\"shared\":0,"
		     "\"num_ctas\":0}", "num_ctas above 0"),
	       "num_ctas 0 is named");
	return tap_done();
}
