/*
 * plot.c - style.gp and gnuplot found, gnuplot run (see plot.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/figures/plot.h"

int nv_plot_find_style(char *buf, size_t n)
{
	const char *env = getenv("NVANALYZE_PLOTS");
	char exe[PATH_MAX];
	ssize_t len;

	if (env) {
		snprintf(buf, n, "%s/style.gp", env);
		return access(buf, R_OK) ? -ENOENT : 0;
	}
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0)
		return -ENOENT;
	exe[len] = 0;
	for (int up = 0; up < 4; up++) {
		char *sl = strrchr(exe, '/');

		if (!sl)
			break;
		*sl = 0;
		if ((size_t)snprintf(buf, n, "%s/plots/style.gp", exe) < n && !access(buf, R_OK))
			return 0;
		if ((size_t)snprintf(buf, n, "%s/share/nvanalyze/plots/style.gp", exe) < n &&
		    !access(buf, R_OK))
			return 0;
	}
	return -ENOENT;
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
 * and TMPDIR from ours, nothing else (no GNUPLOT_LIB, GNUPLOT_DRIVER_DIR ...).
 * Return: the number of entries in env (NULL-terminated).
 */
static size_t plot_env(char **env, size_t n)
{
	static const char *const keep[] = { "PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE",
					    "TMPDIR", "TZ" };
	extern char **environ;
	size_t k = 0;

	for (char **e = environ; *e && k + 1 < n; e++)
		for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
			size_t len = strlen(keep[i]);

			if (!strncmp(*e, keep[i], len) && (*e)[len] == '=') {
				env[k++] = *e;
				break;
			}
		}
	env[k] = NULL;
	return k;
}

int nv_plot_render(const char *dir, const char *name, const char *fmt)
{
	char script[300], fmtarg[64], log[PATH_MAX], exe[PATH_MAX], *env[16];
	int status, fd, err;
	pid_t pid;

	if ((err = nv_plot_find_gnuplot(exe, sizeof(exe))))
		return err;
	snprintf(script, sizeof(script), "%s.gp", name);
	snprintf(fmtarg, sizeof(fmtarg), "fmt='%s'", fmt);
	snprintf(log, sizeof(log), "%s/gnuplot.log", dir);
	plot_env(env, sizeof(env) / sizeof(env[0]));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		char *argv[] = { exe, "--default-settings", "-e", fmtarg, script, NULL };

		fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fd < 0 || chdir(dir))
			_exit(127);
		dup2(fd, 1);
		dup2(fd, 2);
		execve(exe, argv, env);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		err = -errno;
		return err;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}
