/*
 * replay.c - runs a harness without libFuzzer, on the files given and the
 * files in the directories given: how make check replays the seed corpora
 * and the kept reproducers (t/fuzz-repro/) in the ordinary build.
 */
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

#include "fuzz.h"

static int inputs;

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return 1;
	}
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 4096;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	inputs++;
	return 0;
}

static int replay(const char *path)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	int bad = 0;

	if (stat(path, &st) != 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return 1;
	}
	if (!S_ISDIR(st.st_mode))
		return S_ISREG(st.st_mode) ? replay_file(path) : 0;
	d = opendir(path);
	if (!d)
		return 1;
	while ((e = readdir(d)) != NULL) {
		char sub[4096];

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
		bad |= replay(sub);
	}
	closedir(d);
	return bad;
}

int main(int argc, char **argv)
{
	int i, bad = 0;

	for (i = 1; i < argc; i++)
		bad |= replay(argv[i]);
	printf("%d inputs\n", inputs);
	return bad;
}
