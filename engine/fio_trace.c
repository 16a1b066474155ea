/*
 * fio_trace.c - the engine's per-IO trace (filled in with the trace codec).
 */
#include "engine/nv_glue.h"

int nv_trace_open(struct thread_data *td, struct nv_data *ld)
{
	(void)td;
	(void)ld;
	return 0;
}

void nv_trace_completions(struct thread_data *td, struct nv_data *ld)
{
	(void)td;
	(void)ld;
}

void nv_trace_close(struct thread_data *td, struct nv_data *ld)
{
	(void)td;
	(void)ld;
}

void nv_trace_sync_completion(struct thread_data *td, struct nv_data *ld, struct io_u *io_u)
{
	(void)td;
	(void)ld;
	(void)io_u;
}
