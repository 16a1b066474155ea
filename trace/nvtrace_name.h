/*
 * nvtrace_name.h - where a job's trace goes.
 */
#ifndef NV_TRACE_NAME_H
#define NV_TRACE_NAME_H

#include <stddef.h>

/*
 * Write "DIR/JOBNAME.THREAD.nvt" into @buf.  Characters of the job name that
 * are unsafe in a file name ('/', control characters, and a leading '.')
 * become '_', so every job name gives a file directly inside DIR; the fio
 * thread number (unique within one fio run) keeps numjobs clones and jobs
 * of the same name apart.  Returns 0, -EINVAL for an empty dir, or
 * -ENAMETOOLONG when the result does not fit.
 */
int nv_trace_filename(char *buf, size_t len, const char *dir, const char *jobname,
		      unsigned int thread_number);

/*
 * Make @dir ready to take traces: an existing directory is used as it is; a
 * missing one is created (mode 0777 less the umask) when its parent is an
 * existing directory, so nv_trace=traces works in an empty working
 * directory, while a mistyped deeper path is not created.  Another job
 * thread creating it at the same time counts as existing.  *@created is 1
 * only when this call made it.  On failure @msg (of @msglen bytes) says
 * what is wrong, naming the path and the fix.
 * Return: 0, -EINVAL for an empty dir, -ENOTDIR when @dir or its parent is
 * not a directory, -ENOENT when the parent is missing, or mkdir()'s or
 * access()'s -errno (-EACCES: not writable).
 */
int nv_trace_dir_prepare(const char *dir, int *created, char *msg, size_t msglen);

#endif
