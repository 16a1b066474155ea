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
#include <sys/socket.h>
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
			if ((size_t)snprintf(buf, n, "%s/%s", exe, rel[i]) < n &&
			    !access(buf, R_OK))
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

#define MARK "nvanalyze-rendered"	/* gnuplot's line after each file */

int nv_plot_proc_start(struct nv_plot_proc *p, const char *dir)
{
	char exe[PATH_MAX], *argv[] = { exe, "--default-settings", NULL };
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err;

	memset(p, 0, sizeof(*p));
	p->in = p->out = p->log_fd = -1;
	if ((err = nv_plot_find_gnuplot(exe, sizeof(exe))))
		return err;
	if ((p->log_fd = open_log(dir)) < 0)
		return p->log_fd;
	/* stdin a socket: send() with MSG_NOSIGNAL, no SIGPIPE if gnuplot is gone */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) || pipe2(out, O_CLOEXEC)) {
		err = -errno;
		goto fail;
	}
	err = plot_spawn(dir, exe, argv, in[0], out[1], p->log_fd, &p->pid);
	if (err)
		goto fail;
	close(in[0]);
	close(out[1]);
	p->in = in[1];
	p->out = out[0];
	return 0;
fail:
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
	}
	close(p->log_fd);
	p->log_fd = -1;
	return err;
}

/*
 * Send all of buf[0..n) on socket fd (no SIGPIPE).
 * Return: 0, or -errno (-EPIPE: the reader is gone).
 */
static int send_all(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = send(fd, buf, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * The next line of gnuplot's stdout into line (at most n - 1 bytes, NUL
 * ended; a longer line comes in pieces, the last one without its newline).
 * Return: its length, 0 at the end of the output, or -errno.
 */
static ssize_t proc_line(struct nv_plot_proc *p, char *line, size_t n)
{
	bool end = false;

	for (;;) {
		char *nl = memchr(p->buf, '\n', p->have);
		size_t len = nl ? (size_t)(nl - p->buf) + 1 : p->have;
		ssize_t r;

		if (nl || p->have >= n - 1 || p->have == sizeof(p->buf) || (end && p->have)) {
			if (len > n - 1)
				len = n - 1;
			memcpy(line, p->buf, len);
			line[len] = 0;
			memmove(p->buf, p->buf + len, p->have - len);
			p->have -= len;
			return (ssize_t)len;
		}
		if (end)
			return 0;
		r = read(p->out, p->buf + p->have, sizeof(p->buf) - p->have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		end = r == 0;
		p->have += (size_t)r;
	}
}

/*
 * A line of gnuplot's stdout that is not a mark, into the log as it came.
 * Return: nothing (the log is for reading: a lost line fails no figure).
 */
static void log_line(const struct nv_plot_proc *p, const char *line, size_t len)
{
	if (write(p->log_fd, line, len) < 0)
		return;
}

int nv_plot_proc_render(struct nv_plot_proc *p, const char *name, bool svg)
{
	char q[1100], cmd[1400], want[64], line[256];
	int len, err;
	ssize_t r;

	if (p->dead)
		return -EPIPE;
	if (strlen(name) * 4 + 8 > sizeof(q))	/* gpquote: at most 4 a byte */
		return -ENAMETOOLONG;
	nv_gnuplot_str(q, sizeof(q), name);
	p->seq++;
	len = snprintf(cmd, sizeof(cmd),
		       "reset session\n%s"
		       "load \"%s.gp\"\n"
		       "unset output\n"
		       "set print \"-\"\n"
		       "if (GPVAL_ERRNO == 0) { print \"" MARK " %lu ok\" } "
		       "else { print \"" MARK " %lu failed\" }\n"
		       "unset print\n"
		       "reset errors\n",
		       svg ? "fmt = \"svg\"\n" : "", q, p->seq, p->seq);
	if ((size_t)len >= sizeof(cmd))
		return -ENAMETOOLONG;
	if ((err = send_all(p->in, cmd, (size_t)len))) {
		p->dead = true;
		return -EPIPE;
	}
	snprintf(want, sizeof(want), MARK " %lu ", p->seq);
	while ((r = proc_line(p, line, sizeof(line))) > 0) {
		if (!strncmp(line, want, strlen(want)))
			return strcmp(line + strlen(want), "ok\n") ? -EIO : 0;
		log_line(p, line, (size_t)r);
	}
	p->dead = true;	/* gnuplot is gone before its mark */
	return -EPIPE;
}

int nv_plot_proc_stop(struct nv_plot_proc *p)
{
	char line[256];
	ssize_t r;
	int err = 0;

	if (p->in >= 0)
		close(p->in);	/* gnuplot ends at the end of its input */
	if (p->out >= 0) {
		while ((r = proc_line(p, line, sizeof(line))) > 0)
			log_line(p, line, (size_t)r);
		close(p->out);
	}
	if (p->pid > 0)
		err = plot_wait(p->pid);
	if (p->log_fd >= 0)
		close(p->log_fd);
	p->in = p->out = p->log_fd = -1;
	p->pid = 0;
	return err;
}
