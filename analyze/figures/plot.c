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

bool nv_plot_have_gnuplot(void)
{
	const char *path = getenv("PATH");
	char *copy, *save = NULL, *d, buf[PATH_MAX];
	bool found = false;

	if (!path || !(copy = strdup(path)))
		return false;
	for (d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		snprintf(buf, sizeof(buf), "%s/gnuplot", *d ? d : ".");
		found = !access(buf, X_OK);
	}
	free(copy);
	return found;
}

int nv_plot_render(const char *dir, const char *name, const char *fmt)
{
	char script[300], fmtarg[64], log[PATH_MAX];
	int status, fd, err;
	pid_t pid;

	snprintf(script, sizeof(script), "%s.gp", name);
	snprintf(fmtarg, sizeof(fmtarg), "fmt='%s'", fmt);
	snprintf(log, sizeof(log), "%s/gnuplot.log", dir);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fd < 0 || chdir(dir))
			_exit(127);
		dup2(fd, 1);
		dup2(fd, 2);
		execlp("gnuplot", "gnuplot", "-e", fmtarg, script, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		err = -errno;
		return err;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}
