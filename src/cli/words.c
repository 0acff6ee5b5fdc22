/*
 * words.c - words for the user: "did you mean" (the names nearest one
 * misspelt: the fewest single-character edits, insertions, deletions,
 * substitutions and two neighbours swapped, as typing errors go, or a
 * name that holds what was typed) and plural().
 */
#include <string.h>

#include "cli.h"

/* Longer words are compared by their first NAME_CMP_MAX characters: no
 * name of a table is that long, and a typo's distance is only a rank. */
#define NAME_CMP_MAX 64

static int min3(int a, int b, int c)
{
	int m = a < b ? a : b;

	return m < c ? m : c;
}

/* The optimal string alignment distance of typed[0..len) and name. */
static int name_distance(const char *typed, size_t len, const char *name)
{
	int d[NAME_CMP_MAX + 1][NAME_CMP_MAX + 1];
	size_t m = len < NAME_CMP_MAX ? len : NAME_CMP_MAX;
	size_t n = strlen(name), i, j;

	if (n > NAME_CMP_MAX)
		n = NAME_CMP_MAX;
	for (i = 0; i <= m; i++)
		d[i][0] = (int)i;
	for (j = 0; j <= n; j++)
		d[0][j] = (int)j;
	for (i = 1; i <= m; i++)
		for (j = 1; j <= n; j++) {
			int cost = typed[i - 1] != name[j - 1];

			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1,
				       d[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && typed[i - 1] == name[j - 2] &&
			    typed[i - 2] == name[j - 1] &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	return d[m][n];
}

/* A name that holds what was typed whole ('occupancy' in
 * 'launch_occupancy_pct') is as near as two edits, however long. */
static int nearness(const char *typed, size_t len, const char *name)
{
	int d = name_distance(typed, len, name);
	char word[NAME_CMP_MAX + 1];

	if (d <= 2 || len < 3 || len > NAME_CMP_MAX)
		return d;
	memcpy(word, typed, len);
	word[len] = '\0';
	return strstr(name, word) ? 2 : d;
}

void nearest_init(struct nearest *nr, const char *typed, size_t len)
{
	memset(nr, 0, sizeof *nr);
	nr->typed = typed;
	nr->len = len;
}

/* Kept if among the nearest so far; a tie keeps the name offered first
 * (the table's order). */
void nearest_offer(struct nearest *nr, const char *name)
{
	int d = nearness(nr->typed, nr->len, name);
	size_t i;

	if (nr->n == NEAREST_MAX && d >= nr->dist[NEAREST_MAX - 1])
		return;
	if (nr->n < NEAREST_MAX)
		nr->n++;
	for (i = nr->n - 1; i > 0 && d < nr->dist[i - 1]; i--) {
		nr->name[i] = nr->name[i - 1];
		nr->dist[i] = nr->dist[i - 1];
	}
	nr->name[i] = name;
	nr->dist[i] = d;
}

/* "a, b or c" */
void nearest_text(const struct nearest *nr, char *buf, size_t n)
{
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < nr->n && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s",
					i == 0 ? "" : i + 1 == nr->n ? " or "
					: ", ", nr->name[i]);
}

const char *plural(long long n)
{
	return n == 1 ? "" : "s";
}
