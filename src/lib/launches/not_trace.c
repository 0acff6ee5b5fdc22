/*
 * not_trace.c - what a file handed to the launch readers is when it is
 * no trace of theirs: said in words a user recognises (the Nsight
 * Compute CSV beside a trace, a Chrome trace of another tool) rather
 * than a JSON parser's, which only say where the parse stopped.
 */
#include <string.h>

#include "launches_int.h"

/* Whether the first line of p holds s. */
static int first_line_has(const unsigned char *p, size_t n, const char *s)
{
	size_t len = strlen(s), i;

	for (i = 0; i + len <= n && p[i] != '\n'; i++)
		if (memcmp(p + i, s, len) == 0)
			return 1;
	return 0;
}

static int is_text(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] < 0x20 && !strchr("\t\r\n", p[i]))
			return 0;
	return 1;
}

const char *launch_not_trace(const unsigned char *p, size_t n)
{
	size_t i = 0;

	while (i < n && strchr(" \t\r\n", p[i]))
		i++;
	if (i == n || p[i] == '{')
		return NULL;
	if (p[i] == '[')
		return "a JSON array, not the object a trace is";
	/* ncu --csv writes "ID","Process ID",... (after ==PROF== lines);
	 * its metrics are named launch__*, sm__*. */
	if (memcmp(p + i, "==PROF==", n - i < 8 ? n - i : 8) == 0 ||
	    first_line_has(p + i, n - i, "\"Process ID\"") ||
	    first_line_has(p + i, n - i, "launch__"))
		return "an Nsight Compute CSV (ncu --csv), not JSON";
	if (!is_text(p + i, n - i < 4096 ? n - i : 4096))
		return "binary data, not JSON text";
	if (first_line_has(p + i, n - i, ","))
		return "CSV or other text, not JSON";
	return "text, not JSON";
}

/* What only PyTorch's profiler writes: its top-level keys and the
 * categories of its CPU and runtime events. A Chrome trace with none
 * of them and no kernel event is another tool's. */
int launch_pytorch_mark(const char *s, int top)
{
	static const char *const keys[] = {
		"schemaVersion", "deviceProperties", "distributedInfo",
		"baseTimeNanoseconds", "traceName"
	};
	static const char *const cats[] = {
		"cpu_op", "python_function", "user_annotation", "cuda_runtime",
		"cuda_driver", "gpu_memcpy", "gpu_memset", "gpu_user_annotation"
	};
	size_t i;

	for (i = 0; top && i < sizeof keys / sizeof keys[0]; i++)
		if (strcmp(s, keys[i]) == 0)
			return 1;
	for (i = 0; !top && i < sizeof cats / sizeof cats[0]; i++)
		if (strcmp(s, cats[i]) == 0)
			return 1;
	return 0;
}
