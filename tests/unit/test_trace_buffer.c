/*
 * test_trace_buffer.c - buffer by time (nvt_writer_opts.buffer_ms, the
 * engine's nv_trace_buffer_ms): a writer whose sink pauses for less than the
 * buffer never holds the producer; one that pauses for twice as long does,
 * once the unwritten records span the buffer; nothing is dropped either way.
 *
 * The sink is this program's write() (the library is linked statically),
 * held shut while a case asks: the writer thread stops at its first write
 * (the file header) and the ring must hold everything the producer appends.
 * Time is the records' own completion time (1 ms apart), not the clock, and
 * "the producer is held" is the writer's own flag (nvt_writer_stats), so
 * nothing depends on how fast a busy machine runs the threads.
 *
 * The ring's new chunks come from this program's malloc (linked with
 * -Wl,--wrap=malloc): a case can hold the producer inside the allocation
 * of a chunk it adds, while the writer catches up.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tests/unit/check.h"
#include "tests/unit/tmpdir.h"
#include "tests/unit/trace_util.h"
#include "trace/nvtrace.h"

#define STEP_NS		1000000ull	/* completions 1 ms apart */
#define BLOCK		16u		/* records per chunk */
#define BUFFER_MS	1000u

static atomic_int write_held;		/* write() waits while set */

ssize_t write(int fd, const void *buf, size_t n)
{
	while (atomic_load(&write_held))
		usleep(1000);
	return (ssize_t)syscall(SYS_write, fd, buf, n);
}

void *__real_malloc(size_t n);
void *__wrap_malloc(size_t n);

/* A hook on the next allocation of grow_size bytes by grow_thread. */
static atomic_bool grow_armed;
static pthread_t grow_thread;
static size_t grow_size;
static void (*grow_hook)(void);

void *__wrap_malloc(size_t n)
{
	if (n == grow_size && atomic_load(&grow_armed) &&
	    pthread_equal(pthread_self(), grow_thread) && atomic_exchange(&grow_armed, false))
		grow_hook();
	return __real_malloc(n);
}

struct producer {
	struct nvt_writer *w;
	unsigned n;		/* records to append, completions 0, STEP_NS, ... */
	atomic_uint appended;	/* appends that returned */
	atomic_int done;
	int err;		/* the first append error */
};

/* Append p->n records in completion order.  Return: NULL. */
static void *produce(void *arg)
{
	struct producer *p = arg;

	for (unsigned i = 0; i < p->n; i++) {
		struct nvt_record r = {
			.submit_ns = i * STEP_NS, .complete_ns = i * STEP_NS + 1000,
			.offset = (uint64_t)i * 4096, .length = 4096, .qd = 1,
		};
		int err = nvt_writer_append(p->w, &r);

		if (err && !p->err)
			p->err = err;
		atomic_fetch_add(&p->appended, 1);
	}
	atomic_store(&p->done, 1);
	return NULL;
}

/*
 * Wait until the producer has finished or the writer says it is held.  The
 * poll bound only keeps a broken writer from hanging the suite (minutes, far
 * beyond the microseconds the appends take).  Return: 1 held, 0 finished,
 * -1 neither (a hang).
 */
static int held_or_done(struct producer *p)
{
	for (long i = 0; i < 300000; i++) {
		struct nvt_writer_stats s;

		nvt_writer_stats(p->w, &s);
		if (s.waiting)
			return 1;
		if (atomic_load(&p->done))
			return 0;
		usleep(1000);
	}
	return -1;
}

/*
 * Run a producer of n records against a held sink with buffer_ms; *held
 * says whether it was held, *appended where.  Then release the sink and
 * close.  Return: the close result.
 */
static int run_paused(const char *name, unsigned buffer_ms, unsigned n, int *held,
		      unsigned *appended, struct nvt_writer_stats *st)
{
	struct nvt_writer_opts o = { .block_records = BLOCK, .buffer_ms = buffer_ms };
	struct producer p = { .n = n };
	pthread_t t;
	int err;

	atomic_init(&p.appended, 0);
	atomic_init(&p.done, 0);
	atomic_store(&write_held, 1);
	err = nvt_writer_open(&p.w, tpath(name), NULL, 0, &o);
	if (err) {
		atomic_store(&write_held, 0);
		return err;
	}
	pthread_create(&t, NULL, produce, &p);
	*held = held_or_done(&p);
	*appended = atomic_load(&p.appended);
	nvt_writer_stats(p.w, st);
	atomic_store(&write_held, 0);	/* the pause ends */
	pthread_join(t, NULL);
	err = nvt_writer_close(p.w, NULL, 0);
	return err ? err : p.err;
}

/* A pause of 0.9 x buffer_ms: every append returns while the sink is shut. */
TEST(pause_within_buffer)
{
	unsigned n = BUFFER_MS * 9 / 10, appended = 0;
	struct nvt_writer_stats st;
	int held = -1;

	CHECK_EQ_I64(run_paused("within.nvt", BUFFER_MS, n, &held, &appended, &st), 0);
	CHECK_EQ_I64(held, 0);
	CHECK_EQ_U64(appended, n);
	CHECK_EQ_U64(st.waits, 0);
	CHECK(st.chunks > 4);	/* the ring grew to hold the pause */
	CHECK_EQ_U64(footer_u64(tpath("within.nvt"), "writer.io_waits"), 0);
	CHECK_EQ_U64(footer_u64(tpath("within.nvt"), "writer.buffer_ms"), BUFFER_MS);
	CHECK_EQ_U64(footer_u64(tpath("within.nvt"), "writer.ring_chunks"), st.chunks);
	CHECK_EQ_I64(records_in_order(tpath("within.nvt")), n);
}

/*
 * A pause of 2 x buffer_ms: the producer is held at the first chunk that
 * begins buffer_ms after the oldest unwritten record, not before; once the
 * sink opens it goes on and every record is in the trace, in order.
 */
TEST(pause_twice_buffer)
{
	unsigned n = 2 * BUFFER_MS, appended = 0;
	unsigned at = (BUFFER_MS + BLOCK - 1) / BLOCK * BLOCK;	/* chunk start >= buffer */
	struct nvt_writer_stats st;
	int held = -1;

	CHECK_EQ_I64(run_paused("twice.nvt", BUFFER_MS, n, &held, &appended, &st), 0);
	CHECK_EQ_I64(held, 1);
	CHECK(appended >= BUFFER_MS);	/* everything within the buffer went in */
	CHECK_EQ_U64(appended, at);
	CHECK_EQ_U64(st.chunks, at / BLOCK);
	/* at least that one (after it, a producer faster than the writer may wait again) */
	CHECK(footer_u64(tpath("twice.nvt"), "writer.io_waits") >= 1);
	CHECK_EQ_I64(records_in_order(tpath("twice.nvt")), n);
}

/* buffer_ms 0: the fixed ring of 4 chunks holds the producer after 4 chunks. */
TEST(no_buffer_fixed_ring)
{
	unsigned appended = 0;
	struct nvt_writer_stats st;
	int held = -1;

	CHECK_EQ_I64(run_paused("fixed.nvt", 0, BUFFER_MS / 2, &held, &appended, &st), 0);
	CHECK_EQ_I64(held, 1);
	CHECK_EQ_U64(appended, 4 * BLOCK);
	CHECK_EQ_U64(st.chunks, 4);
	CHECK_EQ_U64(footer_u64(tpath("fixed.nvt"), "writer.ring_chunks"), 4);
	CHECK_EQ_I64(records_in_order(tpath("fixed.nvt")), BUFFER_MS / 2);
}

static struct nvt_writer *race_w;
static int race_caught_up = -1;

/*
 * Inside the allocation of the chunk the producer adds: open the sink and
 * wait until the writer has written every READY chunk (backlog 0), so that
 * it waits on the current chunk's successor.  The poll bound only keeps a
 * broken writer from hanging the suite.  Return: nothing.
 */
static void let_writer_catch_up(void)
{
	atomic_store(&write_held, 0);
	for (long i = 0; i < 300000; i++) {
		struct nvt_writer_stats s;

		nvt_writer_stats(race_w, &s);
		if (!s.backlog) {
			race_caught_up = 1;
			return;
		}
		usleep(1000);
	}
	race_caught_up = 0;
}

/* The producer of grow_while_writer_catches_up: arms the hook for itself. */
static void *produce_armed(void *arg)
{
	grow_thread = pthread_self();
	grow_size = BLOCK * sizeof(struct nvt_record);
	grow_hook = let_writer_catch_up;
	atomic_store(&grow_armed, true);
	return produce(arg);
}

/*
 * A ring of 2 chunks, both full and unwritten when the producer needs a
 * third: it adds one, and while it allocates the writer writes both and
 * waits on the next.  Every record is still in the trace, in order (a chunk
 * linked in after the writer went past was filled and never written).
 */
TEST(grow_while_writer_catches_up)
{
	struct nvt_writer_opts o = {
		.block_records = BLOCK, .nchunks = 2, .buffer_ms = BUFFER_MS,
	};
	struct producer p = { .n = 5 * BLOCK + 3 };
	pthread_t t;

	atomic_init(&p.appended, 0);
	atomic_init(&p.done, 0);
	atomic_store(&write_held, 1);
	CHECK_EQ_I64(nvt_writer_open(&p.w, tpath("race.nvt"), NULL, 0, &o), 0);
	if (!p.w) {
		atomic_store(&write_held, 0);
		return;
	}
	race_w = p.w;
	pthread_create(&t, NULL, produce_armed, &p);
	pthread_join(t, NULL);
	atomic_store(&write_held, 0);
	atomic_store(&grow_armed, false);
	CHECK_EQ_I64(nvt_writer_close(p.w, NULL, 0), 0);
	CHECK_EQ_I64(p.err, 0);
	CHECK_EQ_I64(race_caught_up, 1);	/* the hook ran and the writer caught up */
	CHECK_EQ_I64(records_in_order(tpath("race.nvt")), p.n);
}

/* The cap: 128 MiB of records, never below the starting ring, at most 65536 chunks. */
TEST(ring_cap)
{
	struct nvt_writer_opts o = { .buffer_ms = NVT_MAX_BUFFER_MS + 1 };
	struct nvt_writer *w = NULL;
	struct nvt_writer_stats st;

	CHECK_EQ_I64(nvt_writer_open(&w, tpath("bad.nvt"), NULL, 0, &o), -EINVAL);
	CHECK(w == NULL);
	o.buffer_ms = 2000;
	o.block_records = 1u << 20;	/* 40 MiB a chunk: 3 fit in the cap, the ring has 4 */
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("cap.nvt"), NULL, 0, &o), 0);
	nvt_writer_stats(w, &st);
	CHECK_EQ_U64(st.chunks, 4);
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);
	CHECK_EQ_U64(footer_u64(tpath("cap.nvt"), "writer.ring_max"), 4);
	o.block_records = 65536;	/* 2.5 MiB a chunk: 51 */
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("cap2.nvt"), NULL, 0, &o), 0);
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);
	CHECK_EQ_U64(footer_u64(tpath("cap2.nvt"), "writer.ring_max"),
		     (128u << 20) / (65536 * sizeof(struct nvt_record)));
	o.block_records = 16;		/* 640 B a chunk: the count cap */
	CHECK_EQ_I64(nvt_writer_open(&w, tpath("cap3.nvt"), NULL, 0, &o), 0);
	CHECK_EQ_I64(nvt_writer_close(w, NULL, 0), 0);
	CHECK_EQ_U64(footer_u64(tpath("cap3.nvt"), "writer.ring_max"), 65536);
}

int main(void)
{
	if (tmpdir_make("test_trace_buffer"))
		return 1;
	RUN(pause_within_buffer);
	RUN(pause_twice_buffer);
	RUN(no_buffer_fixed_ring);
	RUN(grow_while_writer_catches_up);
	RUN(ring_cap);
	tmpdir_remove();
	return check_summary();
}
