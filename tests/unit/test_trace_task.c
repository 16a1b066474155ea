/*
 * test_trace_task.c - the trace writer as a task of its own session
 * (trace/nvtrace_task.h, nvt_writer_opts.own_session): it is a process in a
 * session (and autogroup) of its own that shares this one's memory; its
 * thread-local state is not the caller's; a trace it writes is whole; and
 * when it is killed, appends and close fail naming the signal instead of
 * hanging, even when it dies holding the ring's mutex.
 *
 * The sink is this program's write(), the scheduler call this program's
 * sched_setscheduler() and the task's creation this program's clone() (the
 * library is linked statically): a case can hold the writer in its first
 * write, kill it inside the one call it makes with the mutex held
 * (nv_trace_sched=auto going back to SCHED_IDLE), or refuse the clone as a
 * sandbox may.
 * Waits are on the writer's own state; their bounds (minutes) only keep a
 * broken writer from hanging the suite.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tests/unit/check.h"
#include "tests/unit/tmpdir.h"
#include "tests/unit/trace_util.h"
#include "trace/nvtrace.h"
#include "trace/nvtrace_sched.h"
#include "trace/nvtrace_task.h"

#define BLOCK	16u

static pid_t test_pid;
static atomic_int write_held;		/* write() waits while set */
static atomic_int kill_in_demote;	/* the writer's SCHED_IDLE call kills it */

ssize_t write(int fd, const void *buf, size_t n)
{
	while (atomic_load(&write_held))
		usleep(1000);
	return (ssize_t)syscall(SYS_write, fd, buf, n);
}

/*
 * The writer's first SCHED_IDLE call is its start (no mutex held); the
 * second is its return to SCHED_IDLE, under the mutex: with kill_in_demote
 * it dies there.  (kill(2) of its own pid: raise() would signal the thread
 * whose identity it borrows, nvtrace_task.h.)
 */
static atomic_int idle_calls;

int sched_setscheduler(pid_t pid, int policy, const struct sched_param *sp)
{
	if (pid == 0 && policy == SCHED_IDLE && getpid() != test_pid &&
	    atomic_load(&kill_in_demote) && atomic_fetch_add(&idle_calls, 1) == 1)
		syscall(SYS_kill, getpid(), SIGKILL);
	return (int)syscall(SYS_sched_setscheduler, pid, policy, sp);
}

/* glibc's clone, unless fail_clone: EPERM (the library passes all three optional arguments). */
static atomic_int fail_clone;

int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
	static int (*real)(int (*)(void *), void *, int, void *, ...);
	pid_t *ptid, *ctid;
	void *tls;
	va_list ap;

	if (atomic_load(&fail_clone)) {
		errno = EPERM;
		return -1;
	}
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "clone");
	va_start(ap, arg);
	ptid = va_arg(ap, pid_t *);
	tls = va_arg(ap, void *);
	ctid = va_arg(ap, pid_t *);
	va_end(ap);
	return real(fn, stack, flags, arg, ptid, tls, ctid);
}

/* What a task saw of itself. */
struct seen {
	pid_t pid, sid;
	char autogroup[128];
	int errno_after;	/* its errno after a failing call */
	int shared;		/* written by the task, read by the caller */
	int mallocs;		/* malloc/free pairs that worked */
	uint32_t hold;		/* the task sleeps while this is 1 */
};

static void read_autogroup(char *buf, size_t len)
{
	int fd = open("/proc/self/autogroup", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, len - 1) : -1;

	buf[n > 0 ? n : 0] = 0;
	if (fd >= 0)
		close(fd);
}

static void *look_around(void *arg)
{
	struct seen *s = arg;

	s->pid = getpid();
	s->sid = getsid(0);
	read_autogroup(s->autogroup, sizeof(s->autogroup));
	for (int i = 0; i < 1000; i++) {
		void *p = malloc((size_t)(i % 64 + 1) * 64);

		s->mallocs += p != NULL;
		free(p);
	}
	close(-1);
	s->errno_after = errno;
	s->shared = 42;
	while (__atomic_load_n(&s->hold, __ATOMIC_ACQUIRE))
		usleep(1000);
	return NULL;
}

/* Wait until t has ended (or minutes passed).  Return: true when it ended. */
static bool ended(struct nvt_task *t)
{
	for (long i = 0; i < 300000 && nvt_task_running(t); i++)
		usleep(1000);
	return !nvt_task_running(t);
}

/*
 * An own-session task: another process, leading a session of its own, in
 * another autogroup; the caller's errno untouched by the task's; malloc works
 * in it while the caller allocates too; join says it ended normally.
 */
TEST(own_session_task)
{
	struct seen s = { 0 };
	struct nvt_task t;
	char mine[128];
	int allocs = 0;

	read_autogroup(mine, sizeof(mine));
	CHECK_EQ_I64(nvt_task_start(&t, look_around, &s, true, 0), 0);
	errno = 0;
	for (int i = 0; i < 1000; i++) {	/* beside the task's own */
		void *p = malloc((size_t)(i % 64 + 1) * 64);

		allocs += p != NULL;
		free(p);
	}
	CHECK(ended(&t));
	CHECK_EQ_I64(errno, 0);
	CHECK_EQ_I64(nvt_task_join(&t), 0);
	CHECK_EQ_I64(s.shared, 42);
	CHECK_EQ_I64(s.errno_after, EBADF);
	CHECK_EQ_I64(s.mallocs, 1000);
	CHECK_EQ_I64(allocs, 1000);
	CHECK(s.pid != getpid());
	CHECK_EQ_I64(s.sid, s.pid);
	CHECK(getsid(0) != s.sid);
	CHECK_EQ_I64(t.session_err, 0);
	if (mine[0])	/* a kernel with autogroup scheduling */
		CHECK(strcmp(mine, s.autogroup) != 0);
}

/* With autogroup_nice, the task's new group has it. */
TEST(own_session_nice)
{
	struct seen s = { 0 };
	struct nvt_task t;

	CHECK_EQ_I64(nvt_task_start(&t, look_around, &s, true, 19), 0);
	CHECK_EQ_I64(nvt_task_join(&t), 0);
	if (s.autogroup[0])
		CHECK(strstr(s.autogroup, " nice 19") != NULL);
}

/* As a thread: this process, this session. */
TEST(thread_task)
{
	struct seen s = { 0 };
	struct nvt_task t;

	CHECK_EQ_I64(nvt_task_start(&t, look_around, &s, false, 19), 0);
	CHECK_EQ_I64(nvt_task_join(&t), 0);
	CHECK_EQ_I64(s.pid, getpid());
	CHECK_EQ_I64(s.sid, getsid(0));
	CHECK_EQ_I64(s.shared, 42);
}

/* A task killed by a signal: running turns false, join names the signal. */
TEST(own_session_killed)
{
	struct seen s = { .hold = 1 };
	struct nvt_task t;

	CHECK_EQ_I64(nvt_task_start(&t, look_around, &s, true, 0), 0);
	for (long i = 0; i < 300000 && !__atomic_load_n(&s.shared, __ATOMIC_ACQUIRE); i++)
		usleep(1000);
	CHECK(nvt_task_running(&t));
	CHECK_EQ_I64(kill(t.pid, SIGKILL), 0);
	CHECK(ended(&t));
	CHECK_EQ_I64(nvt_task_signal(&t), SIGKILL);	/* seen before the reaping */
	CHECK_EQ_I64(nvt_task_join(&t), SIGKILL);
}

/* Append n records, completions 1 us apart from i0.  Return: the first error, or 0. */
static int append_n(struct nvt_writer *w, unsigned i0, unsigned n)
{
	for (unsigned i = i0; i < i0 + n; i++) {
		struct nvt_record r = {
			.submit_ns = i * 1000ull, .complete_ns = i * 1000ull + 500,
			.offset = (uint64_t)i * 4096, .length = 4096, .qd = 1,
		};
		int err = nvt_writer_append(w, &r);

		if (err)
			return err;
	}
	return 0;
}

/* The writer's pid once it runs (0 after minutes).  Return: it. */
static pid_t writer_of(struct nvt_writer *w)
{
	struct nvt_writer_stats st = { 0 };

	for (long i = 0; i < 300000; i++) {
		nvt_writer_stats(w, &st);
		if (st.writer)
			break;
		usleep(1000);
	}
	return st.writer;
}

/* An own-session writer writes the whole trace and says so in the footer. */
TEST(writer_own_session_whole)
{
	struct nvt_writer_opts o = { .block_records = BLOCK, .nchunks = 2, .own_session = true };
	struct nvt_writer *w;
	char v[64];
	pid_t pid;

	CHECK_EQ_I64(nvt_writer_open(&w, tpath("own.nvt"), NULL, 0, &o), 0);
	if (!w)
		return;
	CHECK_EQ_I64(append_n(w, 0, 100000), 0);
	pid = writer_of(w);
	CHECK(pid > 0 && pid != getpid());
	CHECK_EQ_I64(getsid(pid), pid);
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);
	CHECK_EQ_I64(records_in_order(tpath("own.nvt")), 100000);
	CHECK_STR(footer_str(tpath("own.nvt"), "writer.process", v, sizeof(v)), "own-session");
	o.own_session = false;
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("thread.nvt"), NULL, 0, &o), 0);
	if (!w)
		return;
	CHECK_EQ_I64(append_n(w, 0, 1000), 0);
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);
	CHECK_STR(footer_str(tpath("thread.nvt"), "writer.process", v, sizeof(v)), "");
}

/*
 * Killed in its first write (not holding the mutex): the appends that need
 * a chunk it would have freed fail with -EPIPE and the error names SIGKILL
 * at once (the engine prints it then); close fails the same.
 */
TEST(writer_killed_appends_fail)
{
	struct nvt_writer_opts o = { .block_records = BLOCK, .nchunks = 2, .own_session = true };
	struct nvt_writer *w;
	char msg[512];
	pid_t pid;

	atomic_store(&write_held, 1);
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("killed.nvt"), NULL, 0, &o), 0);
	if (!w) {
		atomic_store(&write_held, 0);
		return;
	}
	pid = writer_of(w);
	CHECK(pid > 0 && pid != getpid());
	if (pid > 0 && pid != getpid())
		kill(pid, SIGKILL);
	atomic_store(&write_held, 0);
	CHECK_EQ_I64(append_n(w, 0, 10 * BLOCK), -EPIPE);
	/* before close */
	CHECK(strstr(nvt_writer_strerror(w), "killed by SIGKILL") != NULL);
	CHECK_EQ_I64(nvt_writer_close_msg(w, NULL, 0, msg, sizeof(msg)), -EPIPE);
	CHECK(strstr(msg, "killed by SIGKILL") != NULL);
	CHECK(strstr(msg, "killed.nvt") != NULL);
}

/*
 * Killed with the ring's mutex held (nv_trace_sched=auto: promoted once
 * half the ring waits, the writer goes back to SCHED_IDLE under the mutex
 * when it has caught up, and dies there): no hang; the error is the same.
 */
TEST(writer_killed_holding_mutex)
{
	struct nvt_writer_opts o = {
		.block_records = BLOCK, .nchunks = 2, .own_session = true, .sched = NVT_SCHED_AUTO,
	};
	struct nvt_writer *w;
	char msg[512];
	int err;

	if (!nvt_sched_can_leave_idle()) {
		printf("SKIP: test_trace_task/writer_killed_holding_mutex (no CAP_SYS_NICE and "
		       "RLIMIT_NICE too low: the writer cannot leave SCHED_IDLE)\n");
		return;
	}
	atomic_store(&idle_calls, 0);
	atomic_store(&kill_in_demote, 1);
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("held.nvt"), NULL, 0, &o), 0);
	if (!w) {
		atomic_store(&kill_in_demote, 0);
		return;
	}
	err = append_n(w, 0, 100 * BLOCK);
	CHECK(err == 0 || err == -EPIPE);
	CHECK_EQ_I64(nvt_writer_close_msg(w, NULL, 0, msg, sizeof(msg)), -EPIPE);
	CHECK(strstr(msg, "killed by SIGKILL") != NULL);
	CHECK_EQ_I64(atomic_load(&idle_calls), 2);	/* it died in the second */
	atomic_store(&kill_in_demote, 0);
}

/* A sandbox that refuses the clone: the writer is a thread, the trace whole, no writer.process. */
TEST(writer_falls_back_to_a_thread)
{
	struct nvt_writer_opts o = { .block_records = BLOCK, .nchunks = 2, .own_session = true };
	struct nvt_writer *w;
	char p[64], v[64];
	pid_t tid;

	atomic_store(&fail_clone, 1);
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("fallback.nvt"), NULL, 0, &o), 0);
	atomic_store(&fail_clone, 0);
	if (!w)
		return;
	CHECK_EQ_I64(append_n(w, 0, 1000), 0);
	tid = writer_of(w);
	snprintf(p, sizeof(p), "/proc/self/task/%d", (int)tid);
	CHECK(tid > 0 && access(p, F_OK) == 0);	/* a thread of this process */
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);
	CHECK_EQ_I64(records_in_order(tpath("fallback.nvt")), 1000);
	CHECK_STR(footer_str(tpath("fallback.nvt"), "writer.process", v, sizeof(v)), "");
}

int main(void)
{
	test_pid = getpid();
	if (tmpdir_make("test_trace_task"))
		return 1;
	RUN(own_session_task);
	RUN(own_session_nice);
	RUN(thread_task);
	RUN(own_session_killed);
	RUN(writer_own_session_whole);
	RUN(writer_killed_appends_fail);
	RUN(writer_killed_holding_mutex);
	RUN(writer_falls_back_to_a_thread);
	tmpdir_remove();
	return check_summary();
}
