/* libFuzzer harness for the broker's frame decoder: the input is one
 * datagram from the sandboxed side, held in a buffer of exactly its size
 * so any read past what arrived is caught. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trusted/broker_proto.h"

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
	/* An APPROVE from the shell, an ASK from whoever reaches the approver:
	 * every field ends inside the payload, and the marks stay inside the
	 * command, in order. */
	const char *fields[BROKER_ASK_FIELDS];
	const size_t counts[2] = {BROKER_APPROVE_FIELDS, BROKER_ASK_FIELDS};
	const size_t command_at[2] = {1, 3}, marks_at[2] = {3, 5};
	for (size_t c = 0; c < 2; c++) {
		if (broker_frame_fields(f, fields, counts[c]) != 0)
			continue;
		for (size_t i = 0; i < counts[c]; i++)
			if (fields[i] < f->payload || fields[i] + strlen(fields[i]) >= f->payload + f->len)
				abort();
		struct broker_mark marks[BROKER_MARKS_MAX];
		size_t command_len = strlen(fields[command_at[c]]);
		int n = broker_frame_marks(fields[marks_at[c]], command_len, marks, BROKER_MARKS_MAX);
		if (n > BROKER_MARKS_MAX)
			abort();
		size_t end = 0;
		for (int i = 0; i < n; i++) {
			if (marks[i].len == 0 || marks[i].at < end || marks[i].at + marks[i].len > command_len)
				abort();
			end = marks[i].at + marks[i].len;
		}
	}
	free(buf);
	return 0;
}
