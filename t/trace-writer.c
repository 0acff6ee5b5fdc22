/*
 * trace-writer.c - the injection library's writing, without a GPU: a
 * record's JSON (names escaped, a line too long for its buffer never
 * written), kernels' names demangled once and only where they are C++
 * symbols, and the file OCCCALC_TRACE_OUT names (a directory's
 * occcalc-trace.PID.jsonl; a file for the first process, FILE.PID after;
 * with OCCCALC_TRACE_RUN's id, occcalc-trace.RUN.PID.jsonl, FILE.RUN and
 * FILE.RUN.PID).
 * CUPTI's side is tested on a GPU (t/gpu/trace_check.py).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "trace.h"

static void test_line(void)
{
	char buf[256], small[24];
	struct line l = { buf, 0, sizeof buf };
	struct line s = { small, 0, sizeof small };

	line_raw(&l, "{\"type\":\"x\"");
	line_str(&l, "kernel", "a\"b\\c\nd\x01");
	line_int(&l, "n", -42);
	line_triple(&l, "grid", 1, 2, 3);
	line_raw(&l, "}");
	buf[l.len] = '\0';
	tap_ok(strcmp(buf, "{\"type\":\"x\",\"kernel\":\"a\\\"b\\\\c\\u000ad"
		      "\\u0001\",\"n\":-42,\"grid\":[1,2,3]}") == 0,
	       "a record's JSON: keys, escaped string, integers, a triple");
	line_raw(&s, "{");
	line_str(&s, "kernel", "a name longer than the line's room");
	tap_ok(s.len == s.cap, "a line longer than its buffer is marked full, "
	       "never overrun (and so never written)");
}

static void test_names(void)
{
	struct name_cache *c = name_cache_new();
	const char *cxx = "_Z4gemmILi128EEvPf";
	char copy[32];
	const char *a, *b;

	a = name_cache_get(c, cxx);
	tap_ok(a && strcmp(a, "\"kernel\":\"void gemm<128>(float*)\","
			   "\"mangled\":\"_Z4gemmILi128EEvPf\"") == 0,
	       "a C++ symbol is demangled, its symbol kept");
	b = name_cache_get(c, cxx);
	tap_ok(a == b, "the same name pointer is demangled once");
	a = name_cache_get(c, "i");
	tap_ok(a && strcmp(a, "\"kernel\":\"i\",\"mangled\":\"i\"") == 0,
	       "a name that is not a C++ symbol is itself ('i' is not 'int')");
	a = name_cache_get(c, "triton_poi_fused_0");
	tap_ok(a && strstr(a, "\"kernel\":\"triton_poi_fused_0\""),
	       "a Triton kernel's name is itself");
	strcpy(copy, "_Z1fv");
	a = name_cache_get(c, copy);
	strcpy(copy, "_Z1gv");           /* the pointer reused for another */
	b = name_cache_get(c, copy);
	tap_ok(a && b && strstr(b, "\"kernel\":\"g()\""),
	       "a pointer reused for another name gets the new name");
	name_cache_free(c);
}

static int exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0;
}

/* With the runner's id, the names bear it; an id that is not a plain
 * word is ignored (it goes into a path). */
static void test_run_files(const char *dir)
{
	char path[4200];
	struct trace_file f, g;

	setenv(TRACE_ENV_OUT, dir, 1);
	setenv(TRACE_ENV_RUN, "ab12", 1);
	snprintf(path, sizeof path, "%s/occcalc-trace.ab12.%ld.jsonl", dir,
		 (long)getpid());
	tap_ok(trace_file_open(&f) == 0 && strcmp(f.path, path) == 0 &&
	       strcmp(f.run, "ab12") == 0,
	       "with a run id, a directory receives occcalc-trace.RUN.PID.jsonl");
	trace_file_close(&f);
	unlink(path);
	snprintf(path, sizeof path, "%s/t.jsonl", dir);
	setenv(TRACE_ENV_OUT, path, 1);
	tap_ok(trace_file_open(&f) == 0 && strstr(f.path, "/t.jsonl.ab12") &&
	       !exists(path), "with a run id, the first process writes "
	       "FILE.RUN, FILE untouched");
	tap_ok(trace_file_open(&g) == 0 && strstr(g.path, "/t.jsonl.ab12.") &&
	       atol(strrchr(g.path, '.') + 1) == (long)getpid(),
	       "with a run id, the next process writes FILE.RUN.PID");
	unlink(f.path);
	unlink(g.path);
	trace_file_close(&f);
	trace_file_close(&g);
	setenv(TRACE_ENV_RUN, "../x", 1);
	tap_ok(trace_file_open(&f) == 0 && strcmp(f.path, path) == 0 &&
	       f.run[0] == '\0', "a run id that is not a word is not used");
	trace_file_close(&f);
	unlink(path);
	unsetenv(TRACE_ENV_RUN);
}

static void test_files(void)
{
	char dir[] = "/tmp/occcalc-trace-writer.XXXXXX", path[4200];
	struct trace_file f, g;

	if (!mkdtemp(dir)) {
		tap_ok(0, "a scratch directory");
		return;
	}
	setenv(TRACE_ENV_OUT, dir, 1);
	tap_ok(trace_file_open(&f) == 0, "a directory: the file opens");
	snprintf(path, sizeof path, "%s/occcalc-trace.%ld.jsonl", dir,
		 (long)getpid());
	tap_ok(strcmp(f.path, path) == 0 && exists(path),
	       "a directory receives occcalc-trace.PID.jsonl");
	trace_file_put(&f, "{}\n", 3);
	trace_file_close(&f);
	unlink(path);
	snprintf(path, sizeof path, "%s/t.jsonl", dir);
	setenv(TRACE_ENV_OUT, path, 1);
	tap_ok(trace_file_open(&f) == 0 && strcmp(f.path, path) == 0,
	       "a file: the first process writes FILE");
	tap_ok(trace_file_open(&g) == 0 && strstr(g.path, "/t.jsonl.") &&
	       atol(strrchr(g.path, '.') + 1) == (long)getpid(),
	       "a file that exists: the next process writes FILE.PID");
	trace_file_close(&f);
	unlink(g.path);
	trace_file_close(&g);
	unlink(path);
	test_run_files(dir);
	rmdir(dir);
}

int main(void)
{
	test_line();
	test_names();
	test_files();
	tap_plan(tap_n);
	return tap_done();
}
