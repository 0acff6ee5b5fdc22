/*
 * mps.c - occ_mps_sms: the SMs an MPS client gets for its active-thread
 * percentage, against what was measured on an H100 (132 SMs, driver 580;
 * docs/mps.md, docs/mps/h100/mps.csv): cudaDevAttrMultiProcessorCount,
 * the SMs the client's kernels ran on, and those at once, all equal.
 */
#include "occcalc.h"
#include "tap.h"

int main(void)
{
	/* CUDA_MPS_ACTIVE_THREAD_PERCENTAGE, the SMs measured. */
	static const int measured[][2] = {
		{ 100, 132 }, { 75, 98 }, { 50, 66 }, { 34, 44 }, { 33, 42 },
		{ 25, 32 }, { 20, 26 }, { 10, 12 }, { 5, 8 }, { 2, 8 }, { 1, 8 },
	};
	size_t i;
	int sms;

	for (i = 0; i < sizeof measured / sizeof measured[0]; i++)
		tap_ok(occ_mps_sms(132, measured[i][0], &sms) == OCC_OK &&
		       sms == measured[i][1], "%d %% of an H100's 132 SMs: %d "
		       "(got %d)", measured[i][0], measured[i][1], sms);
	tap_ok(occ_mps_sms(6, 50, &sms) == OCC_OK && sms == 6,
	       "at least 8, but no more than the GPU has");
	tap_ok(occ_mps_sms(132, 0, &sms) == OCC_ERR_INVALID_INPUT &&
	       occ_mps_sms(132, 101, &sms) == OCC_ERR_INVALID_INPUT &&
	       occ_mps_sms(0, 50, &sms) == OCC_ERR_INVALID_INPUT,
	       "a percentage outside 1-100, a GPU of no SM: refused");
	tap_plan(tap_n);
	return tap_done();
}
