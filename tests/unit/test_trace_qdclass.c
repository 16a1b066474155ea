/*
 * test_trace_qdclass.c - which queue-depth class an interval's buffer holds
 * for the exact states (stats/trace_qdclass.c tan_exact_run): the IOs of
 * that class are counted once, from the buffer at the close; the others are
 * fed at once and noted, and past IV_MINOR_MAX notes the rest of the
 * interval goes IO by IO.  A run's first interval has no last one to take
 * the class from: it holds the class most of its first IOs have, not the
 * first IO's (a run starts at QD 1 and climbs to its depth).
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/stats/trace_stats.h"
#include "analyze/stats/trace_tan.h"
#include "tests/unit/check.h"

#define NREC 6000
#define DEPTH 64

static uint64_t complete[NREC], lat[NREC];
static uint16_t qd[NREC];
static uint8_t op[NREC];

/* A block of reads: QD 1, 2 ... DEPTH at submission, then DEPTH. */
static struct nvt_cols ramp_block(void)
{
	for (size_t i = 0; i < NREC; i++) {
		complete[i] = 1000000 + i * 1000;
		lat[i] = 20000 + (i * 7919) % 5000;
		qd[i] = i < DEPTH ? (uint16_t)(i + 1) : DEPTH;
		op[i] = NVT_OP_READ;
	}
	return (struct nvt_cols){ .n = NREC, .uniform = NVT_COL_OP, .complete_ns = complete,
				  .latency_ns = lat, .qd = qd, .op = op,
				  .min_complete_ns = complete[0],
				  .max_complete_ns = complete[NREC - 1] };
}

/* The block's runs of one class into st, as interval_run hands them. */
static int feed(struct state *st, const struct nvt_cols *c)
{
	for (size_t g = 0, i; g < c->n; g = i) {
		unsigned q = nv_tan_qd_class(c->qd[g]);
		int err;

		for (i = g + 1; i < c->n && nv_tan_qd_class(c->qd[i]) == q; i++)
			;
		if ((err = tan_exact_run(st, c, NVT_OP_READ, q, g, i)))
			return err;
		if ((err = tan_ibuf_push(&st->ib[NVT_OP_READ], c->latency_ns + g,
					 c->complete_ns + g, i - g, &st->spilled)))
			return err;
	}
	return 0;
}

static void state_free(struct state *st)
{
	for (unsigned k = 0; k < NVT_OP__MAX; k++) {
		tan_ibuf_free(&st->ib[k]);
		for (unsigned q = 0; q < NV_TAN_NQD; q++)
			nv_exact_free(st->qx[k][q]);
	}
}

TEST(first_interval_holds_the_depth_reached)
{
	struct nvt_cols c = ramp_block();
	unsigned deep = nv_tan_qd_class(DEPTH);
	struct state st = { .vcap = 1u << 16, .dense = true };
	uint64_t n = 0;

	CHECK_EQ_I64(tan_ibuf_init(&st.ib[NVT_OP_READ], st.vcap, true, 0), 0);
	CHECK_EQ_I64(feed(&st, &c), 0);
	CHECK_EQ_I64(st.defer[NVT_OP_READ], (int)deep + 1);	/* not class 0, QD 1's */
	CHECK(st.qx[NVT_OP_READ][deep] == NULL);	/* held: none fed yet */
	for (unsigned q = 0; q < deep; q++)	/* the climb: fed at once, noted */
		n += st.qx[NVT_OP_READ][q] ? nv_exact_count(st.qx[NVT_OP_READ][q]) : 0;
	CHECK_EQ_U64(n, DEPTH / 2);	/* QD 1 to 32 */
	CHECK_EQ_U64(st.ib[NVT_OP_READ].nminor, DEPTH / 2);
	/* the close: the held class's IOs counted from the buffer, once */
	CHECK_EQ_I64(tan_defer_close(&st, &st), 0);
	CHECK(st.qx[NVT_OP_READ][deep] != NULL);
	if (st.qx[NVT_OP_READ][deep])
		CHECK_EQ_U64(nv_exact_count(st.qx[NVT_OP_READ][deep]), NREC - DEPTH / 2);
	CHECK_EQ_I64(st.major[NVT_OP_READ], (int)deep + 1);	/* held next */
	state_free(&st);
}

int main(void)
{
	RUN(first_interval_holds_the_depth_reached);
	return check_summary();
}
