/*
 * plot.c - style.gp and gnuplot found, gnuplot run on one script or on
 * many figures at once (see plot.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/figures/gpquote.h"
#include "analyze/figures/plot.h"

/*
 * The first of DIR/rel[0], DIR/rel[1] that is readable, DIR being the
 * directory of this binary, then up to 3 levels above it.
 * Return: 0 with the path in buf, or -ENOENT.
 */
static int find_beside_exe(char *buf, size_t n, const char *const rel[2])
{
	char exe[PATH_MAX];
	ssize_t len;

	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0)
		return -ENOENT;
	exe[len] = 0;
	for (int up = 0; up < 4; up++) {
		char *sl = strrchr(exe, '/');

		if (!sl)
			break;
		*sl = 0;
		for (int i = 0; i < 2; i++)
			if ((size_t)snprintf(buf, n, "%s/%s", exe, rel[i]) < n && !access(buf, R_OK))
				return 0;
	}
	return -ENOENT;
}

int nv_plot_find_style(char *buf, size_t n)
{
	static const char *const rel[2] = { "plots/style.gp", "share/nvanalyze/plots/style.gp" };
	const char *env = getenv("NVANALYZE_PLOTS");

	if (env) {
		snprintf(buf, n, "%s/style.gp", env);
		return access(buf, R_OK) ? -ENOENT : 0;
	}
	return find_beside_exe(buf, n, rel);
}

int nv_plot_find_pngfast(char *buf, size_t n)
{
	static const char *const rel[2] = { "libnvpngfast.so", "lib/nvanalyze/libnvpngfast.so" };
	const char *env = getenv("NVANALYZE_PNGFAST");

	if (env && !strcmp(env, "0"))
		return -ENOENT;
	if (find_beside_exe(buf, n, rel))
		return -ENOENT;
	return strpbrk(buf, " :") ? -ENOENT : 0;	/* LD_PRELOAD's separators */
}

int nv_plot_find_gnuplot(char *buf, size_t n)
{
	const char *path = getenv("PATH");
	char *copy, *save = NULL, *d;
	int ret = -ENOENT;

	if (!path || !(copy = strdup(path)))
		return -ENOENT;
	for (d = strtok_r(copy, ":", &save); d && ret; d = strtok_r(NULL, ":", &save))
		if (*d == '/' && (size_t)snprintf(buf, n, "%s/gnuplot", d) < n &&
		    !access(buf, X_OK))
			ret = 0;
	free(copy);
	return ret;
}

bool nv_plot_have_gnuplot(void)
{
	char buf[PATH_MAX];

	return !nv_plot_find_gnuplot(buf, sizeof(buf));
}

/*
 * The environment gnuplot runs in: PATH, HOME (the font cache), the locale
 * and TMPDIR from ours, nothing else (no GNUPLOT_LIB, GNUPLOT_DRIVER_DIR,
 * LD_PRELOAD ...), and preload (LD_PRELOAD=libnvpngfast.so) when not NULL.
 * Return: the number of entries in env (NULL-terminated).
 */
static size_t plot_env(char **env, size_t n, char *preload)
{
	static const char *const keep[] = { "PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE",
					    "TMPDIR", "TZ" };
	extern char **environ;
	size_t k = 0;

	for (char **e = environ; *e && k + 2 < n; e++)
		for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
			size_t len = strlen(keep[i]);

			if (!strncmp(*e, keep[i], len) && (*e)[len] == '=') {
				env[k++] = *e;
				break;
			}
		}
	if (preload)
		env[k++] = preload;
	env[k] = NULL;
	return k;
}

/*
 * Start exe with argv in dir from posix_spawn (no copy of our memory, as
 * vfork): stdin from in (-1: ours), stdout to out (-1: the log), stderr to
 * the log (log_fd), the environment of plot_env with libnvpngfast.so
 * preloaded when nv_plot_find_pngfast finds it.
 * Return: 0 with the child in *pid, or -errno.
 */
static int plot_spawn(const char *dir, const char *exe, char *const argv[], int in, int out,
		      int log_fd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	static const char key[] = "LD_PRELOAD=";
	char *env[16], preload[PATH_MAX + sizeof(key)];
	bool fast;
	int err;

	memcpy(preload, key, sizeof(key) - 1);
	fast = !nv_plot_find_pngfast(preload + sizeof(key) - 1, sizeof(preload) - sizeof(key) + 1);
	plot_env(env, sizeof(env) / sizeof(env[0]), fast ? preload : NULL);
	err = posix_spawn_file_actions_init(&fa);
	if (err)
		return -err;
	if (in >= 0)
		err = posix_spawn_file_actions_adddup2(&fa, in, 0);
	if (!err)
		err = posix_spawn_file_actions_adddup2(&fa, out >= 0 ? out : log_fd, 1);
	if (!err)
		err = posix_spawn_file_actions_adddup2(&fa, log_fd, 2);
	if (!err)
		err = posix_spawn_file_actions_addchdir_np(&fa, dir);
	if (!err)
		err = posix_spawn(pid, exe, &fa, NULL, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	return -err;
}

/*
 * Wait for child pid.
 * Return: 0 when it exited 0, -EIO when it failed, or -errno of waitpid.
 */
static int plot_wait(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

/*
 * DIR/gnuplot.log opened to append (close-on-exec: a child gets it only as
 * its stdout or stderr).
 * Return: the descriptor, or -errno.
 */
static int open_log(const char *dir)
{
	char log[PATH_MAX];
	int fd;

	snprintf(log, sizeof(log), "%s/gnuplot.log", dir);
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	return fd < 0 ? -errno : fd;
}

int nv_plot_render(const char *dir, const char *name, const char *fmt)
{
	char script[300], fmtarg[64], exe[PATH_MAX];
	char *argv[] = { exe, "--default-settings", "-e", fmtarg, script, NULL };
	int fd, err;
	pid_t pid;

	if ((err = nv_plot_find_gnuplot(exe, sizeof(exe))))
		return err;
	snprintf(script, sizeof(script), "%s.gp", name);
	snprintf(fmtarg, sizeof(fmtarg), "fmt='%s'", fmt);
	if ((fd = open_log(dir)) < 0)
		return fd;
	err = plot_spawn(dir, exe, argv, -1, -1, fd, &pid);
	close(fd);
	return err ? err : plot_wait(pid);
}

/* ---- many figures in one gnuplot --------------------------------------- */

#define MARK "nvanalyze-rendered"	/* the driver's line after each file */

/*
 * The driver of a batch into f: per figure k, NAME.gp as PNG then as SVG,
 * each after `reset session` (as in a fresh gnuplot: no variable of the
 * figure before, fmt unset for PNG), the file closed, and when gnuplot met
 * no error, "MARK k png|svg" on stdout.  A name whose escape does not fit
 * is left out (never rendered here: its figure is not done).
 * Return: nothing.
 */
static void write_driver(FILE *f, const char *const *names, size_t n)
{
	static const char *const fmts[] = { "png", "svg" };
	char q[1100];

	for (size_t k = 0; k < n; k++) {
		if (strlen(names[k]) * 4 + 8 > sizeof(q))	/* gpquote: at most 4 a byte */
			continue;
		nv_gnuplot_str(q, sizeof(q), names[k]);
		for (int i = 0; i < 2; i++)
			fprintf(f, "reset session\n%s"
				"load \"%s.gp\"\n"
				"unset output\n"
				"if (GPVAL_ERRNO == 0) { set print \"-\"; "
				"print \"" MARK " %zu %s\"; unset print }\n",
				i ? "fmt = \"svg\"\n" : "", q, k, fmts[i]);
	}
}

/*
 * One line of the batch's stdout: a MARK line counts in got[] (bit 1 PNG,
 * bit 2 SVG), anything else goes to the log as gnuplot wrote it.
 * Return: nothing.
 */
static void batch_line(const char *line, size_t len, unsigned char *got, size_t n, int log_fd)
{
	char buf[64], *end;
	unsigned long long k;

	if (len < sizeof(buf) && !strncmp(line, MARK " ", strlen(MARK " "))) {
		memcpy(buf, line, len);
		buf[len] = 0;
		k = strtoull(buf + strlen(MARK " "), &end, 10);
		if (k < n && (!strcmp(end, " png\n") || !strcmp(end, " svg\n"))) {
			got[k] |= end[1] == 'p' ? 1 : 2;
			return;
		}
	}
	if (write(log_fd, line, len) < 0)
		return;	/* the log is for reading: a lost line fails no figure */
}

/*
 * Read the batch's stdout to its end, line by line (batch_line).
 * Return: nothing.
 */
static void batch_read(int fd, unsigned char *got, size_t n, int log_fd)
{
	char buf[4096];
	size_t have = 0;
	ssize_t r;

	for (;;) {
		char *nl;

		r = read(fd, buf + have, sizeof(buf) - have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		have += (size_t)r;
		while ((nl = memchr(buf, '\n', have))) {
			size_t len = (size_t)(nl - buf) + 1;

			batch_line(buf, len, got, n, log_fd);
			memmove(buf, buf + len, have - len);
			have -= len;
		}
		if (have == sizeof(buf)) {	/* a line longer than buf: not a mark */
			batch_line(buf, have, got, n, log_fd);
			have = 0;
		}
	}
	if (have)
		batch_line(buf, have, got, n, log_fd);
}

/*
 * The driver of names[] in an anonymous file (memfd), read from its start.
 * Return: the descriptor, or -errno.
 */
static int driver_fd(const char *const *names, size_t n)
{
	int fd = memfd_create("nvanalyze-gnuplot", MFD_CLOEXEC), err = 0;
	FILE *f;

	if (fd < 0)
		return -errno;
	f = fdopen(fcntl(fd, F_DUPFD_CLOEXEC, 0), "w");	/* -1: fdopen fails */
	if (!f) {
		err = -errno;
	} else {
		write_driver(f, names, n);
		if (ferror(f) | fclose(f))
			err = -EIO;
	}
	if (!err && lseek(fd, 0, SEEK_SET) < 0)
		err = -errno;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int nv_plot_render_batch(const char *dir, const char *const *names, size_t n, bool *done)
{
	char exe[PATH_MAX], *argv[] = { exe, "--default-settings", NULL };
	int in, log_fd, pfd[2] = { -1, -1 }, err;
	unsigned char *got;
	pid_t pid;

	for (size_t k = 0; k < n; k++)
		done[k] = false;
	if ((err = nv_plot_find_gnuplot(exe, sizeof(exe))))
		return err;
	if (!(got = calloc(n ? n : 1, 1)))
		return -ENOMEM;
	if ((in = driver_fd(names, n)) < 0) {
		free(got);
		return in;
	}
	if ((log_fd = open_log(dir)) < 0) {
		err = log_fd;
		goto out;
	}
	if (pipe2(pfd, O_CLOEXEC)) {
		err = -errno;
		goto out;
	}
	err = plot_spawn(dir, exe, argv, in, pfd[1], log_fd, &pid);
	close(pfd[1]);
	if (!err) {
		batch_read(pfd[0], got, n, log_fd);
		err = plot_wait(pid);
	}
	close(pfd[0]);
	for (size_t k = 0; k < n; k++)
		done[k] = got[k] == 3;
out:
	if (log_fd >= 0)
		close(log_fd);
	close(in);
	free(got);
	return err;
}
