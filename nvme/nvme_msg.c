/* nvme_msg.c - see nvme_msg.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "nvme/nvme_msg.h"

int nv_msg_fail(char *msg, size_t msglen, const char *fmt, ...)
{
	va_list ap;

	if (msg && msglen) {
		va_start(ap, fmt);
		vsnprintf(msg, msglen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}
