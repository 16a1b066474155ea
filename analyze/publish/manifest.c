/*
 * manifest.c - the files an `nvanalyze -o` directory holds (manifest.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/publish/manifest.h"

void nv_manifest_add(struct nv_manifest *m, const char *rel)
{
	char *s;

	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->rel[i], rel))
			return;
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 64;
		char **r = realloc(m->rel, cap * sizeof(*r));

		if (!r) {
			m->oom = true;
			return;
		}
		m->rel = r;
		m->cap = cap;
	}
	s = strdup(rel);
	if (!s) {
		m->oom = true;
		return;
	}
	m->rel[m->n++] = s;
}

bool nv_manifest_name_ok(const char *rel)
{
	const char *base = rel;

	if (!strncmp(rel, "data/", 5))
		base = rel + 5;
	return *base && *base != '.' && !strchr(base, '/') && !strstr(rel, "..") &&
	       strcmp(rel, NV_MANIFEST_NAME);
}

static bool listed(const struct nv_manifest *m, const char *rel)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->rel[i], rel))
			return true;
	return false;
}

/*
 * The names of dir's earlier list into *old (empty when there is none).
 * Return: 0 or -ENOMEM.
 */
static int read_old(const char *dir, struct nv_manifest *old)
{
	char path[PATH_MAX], line[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, NV_MANIFEST_NAME);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (line[0] && line[0] != '#' && nv_manifest_name_ok(line))
			nv_manifest_add(old, line);
	}
	fclose(f);
	return old->oom ? -ENOMEM : 0;
}

/* Remove dir/rel when it is a regular file (not a link, not a directory). */
static void remove_file(const char *dir, const char *rel)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	if (!lstat(path, &st) && S_ISREG(st.st_mode))
		unlink(path);
}

int nv_manifest_commit(const char *dir, const struct nv_manifest *m, bool remove_stale, char *err,
		       size_t errlen)
{
	struct nv_manifest old = { 0 };
	char path[PATH_MAX];
	FILE *f;
	int ret = read_old(dir, &old);

	if (!ret && m->oom)
		ret = -ENOMEM;
	if (ret) {
		snprintf(err, errlen, "-o %s: out of memory", dir);
		goto out;
	}
	for (size_t i = 0; remove_stale && i < old.n; i++)
		if (!listed(m, old.rel[i]))
			remove_file(dir, old.rel[i]);
	snprintf(path, sizeof(path), "%s/%s", dir, NV_MANIFEST_NAME);
	f = fopen(path, "w");
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "-o: cannot write %s: %s", path, strerror(-ret));
		goto out;
	}
	fprintf(f, "# Files written by nvanalyze -o into this directory.  The next nvanalyze -o\n"
		"# here removes those of them it does not write again, and nothing else.\n");
	for (size_t i = 0; i < m->n; i++)
		if (nv_manifest_name_ok(m->rel[i]))
			fprintf(f, "%s\n", m->rel[i]);
	for (size_t i = 0; !remove_stale && i < old.n; i++)
		if (!listed(m, old.rel[i]))
			fprintf(f, "%s\n", old.rel[i]);
	if (ferror(f) | fclose(f)) {
		ret = -EIO;
		snprintf(err, errlen, "-o: writing %s failed", path);
	}
out:
	nv_manifest_free(&old);
	return ret;
}

void nv_manifest_free(struct nv_manifest *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->rel[i]);
	free(m->rel);
	memset(m, 0, sizeof(*m));
}
