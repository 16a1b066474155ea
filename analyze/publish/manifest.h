/*
 * manifest.h - the list of files `nvanalyze -o DIR` wrote, kept in
 * DIR/nvanalyze-files.txt, so that the next -o into the same directory
 * removes the figures and data of the earlier report that it does not
 * write again, and never a file nvanalyze did not write.
 *
 * Only names listed in the earlier list are candidates; a name is removed
 * only when it is a plain relative name (no "..", not absolute, in DIR or
 * DIR/data) of a regular file.  A directory without the list (a user's
 * directory, or one from before the list existed) loses nothing.
 */
#ifndef NV_ANALYZE_MANIFEST_H
#define NV_ANALYZE_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>

#define NV_MANIFEST_NAME "nvanalyze-files.txt"

struct nv_manifest {
	size_t n, cap;
	char **rel;		/* names relative to DIR, in the order written */
	bool oom;		/* a name could not be kept: nothing is removed */
};

/*
 * Note that rel (relative to DIR) was written.
 * Return: nothing (out of memory sets m->oom).
 */
void nv_manifest_add(struct nv_manifest *m, const char *rel);

/*
 * Whether rel is a name nvanalyze may remove: relative, no "..", in DIR or
 * DIR/data.
 * Return: true when it is.
 */
bool nv_manifest_name_ok(const char *rel);

/*
 * After a report was written into dir: when remove_stale, remove the
 * regular files listed in dir's earlier list that m lacks; then write the
 * new list (m, plus the earlier names kept when !remove_stale).
 * Return: 0, or -errno with a message naming the file in err.
 */
int nv_manifest_commit(const char *dir, const struct nv_manifest *m, bool remove_stale, char *err,
		       size_t errlen);

/* Return: nothing; m is emptied. */
void nv_manifest_free(struct nv_manifest *m);

#endif
