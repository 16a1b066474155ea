/*
 * submit_eagain.c - an LD_PRELOAD shim for the engine tests: io_uring_submit()
 * answers -EAGAIN (submitting nothing) while the ring has IO in flight, as a
 * kernel short of resources may, and takes a millisecond to say so: most of
 * the job's time then falls where SQEs wait unsubmitted behind IO in flight
 * (so that fio's ramp_time ends there).  The engine must hold its SQEs and
 * submit them later, with every trace stamp still in order.
 *
 *   cc -shared -fPIC -o submit_eagain.so submit_eagain.c -ldl -Wl,--no-as-needed -luring
 *   LD_PRELOAD=./submit_eagain.so fio --ioengine=external:libnvengine.so ...
 *
 * In flight: submitted by this shim and not yet consumed from the CQ ring
 * (its head counts every CQE consumed), per ring.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <liburing.h>
#include <unistd.h>

#define RINGS	16

static struct {
	struct io_uring *ring;
	/* SQEs the kernel took (mod 2^32, as the CQ head) */
	unsigned int submitted;
} rings[RINGS];

static unsigned int *submitted_of(struct io_uring *ring)
{
	int i;

	for (i = 0; i < RINGS; i++) {
		if (rings[i].ring == ring)
			return &rings[i].submitted;
	}
	for (i = 0; i < RINGS; i++) {
		if (!rings[i].ring) {
			rings[i].ring = ring;
			rings[i].submitted = *ring->cq.khead;
			return &rings[i].submitted;
		}
	}
	return NULL;
}

int io_uring_submit(struct io_uring *ring)
{
	static int (*real)(struct io_uring *);
	unsigned int *sub = submitted_of(ring);
	int ret;

	if (!real)
		real = (int (*)(struct io_uring *))dlsym(RTLD_NEXT, "io_uring_submit");
	if (!real)
		return -ENOSYS;
	if (sub && *sub - *ring->cq.khead != 0) {
		usleep(1000);
		return -EAGAIN;
	}
	ret = real(ring);
	if (sub && ret > 0)
		*sub += (unsigned int)ret;
	return ret;
}
