/* The broker's frame decoder, apart from broker.c so the fuzzer links
 * only this: everything the sandboxed side sends passes through here. */
#include "trusted/broker_proto.h"

#include <string.h>

int broker_frame_check(const struct broker_frame *f, size_t received)
{
	if (received < BROKER_HEADER_SIZE || f->magic != BROKER_MAGIC)
		return -1;
	if (f->type < BROKER_ESCAPE || f->type > BROKER_RELEASE)
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

int broker_frame_fields(const struct broker_frame *f, const char **out, size_t n)
{
	size_t off = 0;
	for (size_t i = 0; i < n; i++) {
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

/* A decimal number of at most five digits (payloads are 16 KiB), which
 * keeps the arithmetic below far from overflow. */
static const char *parse_small(const char *s, size_t *value)
{
	size_t v = 0, digits = 0;
	while (*s >= '0' && *s <= '9' && digits < 6) {
		v = v * 10 + (size_t)(*s - '0');
		s++;
		digits++;
	}
	if (digits == 0 || digits > 5)
		return NULL;
	*value = v;
	return s;
}

int broker_frame_marks(const char *spec, size_t command_len, struct broker_mark *out, size_t max)
{
	size_t n = 0, end = 0;
	const char *p = spec;
	while (*p) {
		struct broker_mark m;
		if (n == max || !(p = parse_small(p, &m.at)) || *p++ != ':' || !(p = parse_small(p, &m.len)))
			return -1;
		if (m.len == 0 || m.at < end || m.at > command_len || m.len > command_len - m.at)
			return -1;
		if (*p == ',' && p[1] != '\0')
			p++;
		else if (*p)
			return -1;
		end = m.at + m.len;
		out[n++] = m;
	}
	return (int)n;
}
