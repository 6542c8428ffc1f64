/* The approver: `sbsh --approver`, started by the human in a terminal of
 * their own, answers the prompts of every sbsh of that user through a unix
 * socket in $XDG_RUNTIME_DIR/sbsh (trusted/approver_socket.h). Those who
 * ask it use trusted/approver_client.h; the text it shows is
 * trusted/prompt.h. */
#ifndef SBSH_APPROVER_H
#define SBSH_APPROVER_H

#include <stdbool.h>

/* `sbsh --approver`: serves prompts until Ctrl-C, end of input or a
 * signal. Inside tmux or screen it refuses to start unless
 * trust_multiplexer (--trust-multiplexer). Returns the exit status (1 when
 * it cannot start). */
int approver_main(bool trust_multiplexer);

#endif
