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

#endif
