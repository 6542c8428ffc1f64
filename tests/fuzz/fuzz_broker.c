/* libFuzzer harness for the broker's frame decoder: the input is one
 * datagram from the sandboxed side, held in a buffer of exactly its size
 * so any read past what arrived is caught. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "broker.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > sizeof(struct broker_frame))
		return 0; /* recvmsg into the frame truncates (MSG_TRUNC is refused) */
	unsigned char *buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	struct broker_frame *f = (struct broker_frame *)buf;
	if (broker_frame_check(f, size) != 0) {
		free(buf);
		return 0;
	}
	if (f->len != size - BROKER_HEADER_SIZE)
		abort();
	char *argv[256];
	int argc = broker_frame_argv(f, argv, sizeof argv / sizeof argv[0]);
	if (argc >= 0) {
		if (argc == 0 || argc >= 256 || argv[argc] != NULL || argv[0][0] == '\0')
			abort();
		for (int i = 0; i < argc; i++)
			(void)strlen(argv[i]); /* each must end inside the payload */
	}
	const char *fields[3];
	if (f->len > 0 && f->payload[f->len - 1] == '\0' && broker_frame_fields(f, fields) == 0)
		for (int i = 0; i < 3; i++)
			(void)strlen(fields[i]);
	free(buf);
	return 0;
}
