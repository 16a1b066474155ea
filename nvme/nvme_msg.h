/*
 * nvme_msg.h - the error-message convention of the pure NVMe helpers: a
 * function that refuses its input returns -EINVAL and, when the caller gave
 * a buffer, a sentence in it naming the value and the limit.
 */
#ifndef NV_NVME_MSG_H
#define NV_NVME_MSG_H

#include <stddef.h>

/*
 * nv_msg_fail - format into msg (skipped when msg is NULL or msglen 0,
 * always NUL terminated otherwise) and return -EINVAL.
 */
__attribute__((format(printf, 3, 4)))
int nv_msg_fail(char *msg, size_t msglen, const char *fmt, ...);

#endif
