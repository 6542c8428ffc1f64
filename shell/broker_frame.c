/* The broker's frame decoder, apart from broker.c so the fuzzer links
 * only this: everything the sandboxed side sends passes through here. */
#include "broker.h"

#include <string.h>

int broker_frame_check(const struct broker_frame *f, size_t received)
{
	if (received < BROKER_HEADER_SIZE || f->magic != BROKER_MAGIC)
		return -1;
	if (f->type < BROKER_ESCAPE || f->type > BROKER_RESTORED)
		return -1;
	if (f->len > BROKER_PAYLOAD_MAX || f->len != received - BROKER_HEADER_SIZE)
		return -1;
	return 0;
}

int broker_frame_argv(struct broker_frame *f, char **argv, size_t max)
{
	if (f->value <= 0 || (size_t)f->value >= max || f->len == 0 || f->payload[f->len - 1] != '\0')
		return -1;
	size_t argc = 0, off = 0;
	while (off < f->len) {
		if (argc >= (size_t)f->value)
			return -1;
		argv[argc++] = f->payload + off;
		off += strlen(f->payload + off) + 1;
	}
	if (argc != (size_t)f->value || argv[0][0] == '\0')
		return -1;
	argv[argc] = NULL;
	return (int)argc;
}

int broker_frame_fields(const struct broker_frame *f, const char *out[3])
{
	size_t off = 0;
	for (int i = 0; i < 3; i++) {
		if (off >= f->len)
			return -1;
		const char *end = memchr(f->payload + off, '\0', f->len - off);
		if (!end)
			return -1;
		out[i] = f->payload + off;
		off = (size_t)(end - f->payload) + 1;
	}
	return off == f->len ? 0 : -1;
}
