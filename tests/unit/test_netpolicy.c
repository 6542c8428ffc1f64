/* The supervisor's network decision (trusted/supervisor_calls.c) and the
 * spec it comes from (sandbox_parse_net): which addresses each mode lets
 * TCP and UDP reach, beyond the ports Landlock sees. */
#include <criterion/criterion.h>

#include <arpa/inet.h>
#include <string.h>

#include "sandbox/sandbox.h"
#include "trusted/supervisor.h"

/* text as the supervisor holds it: IPv4 mapped into IPv6 */
static struct in6_addr addr(const char *text)
{
	struct in6_addr a;
	struct in_addr v4;
	memset(&a, 0, sizeof a);
	if (inet_pton(AF_INET, text, &v4) == 1) {
		a.s6_addr[10] = a.s6_addr[11] = 0xff;
		memcpy(&a.s6_addr[12], &v4, 4);
	} else {
		cr_assert_eq(inet_pton(AF_INET6, text, &a), 1, "%s", text);
	}
	return a;
}

static bool tcp(const struct supervisor_net *n, const char *a, uint16_t port)
{
	struct in6_addr x = addr(a);
	return supervisor_net_allows(n, false, &x, port);
}

static bool udp(const struct supervisor_net *n, const char *a, uint16_t port)
{
	struct in6_addr x = addr(a);
	return supervisor_net_allows(n, true, &x, port);
}

Test(netpolicy, on_checks_nothing)
{
	struct supervisor_net n = {0};
	cr_assert(tcp(&n, "192.0.2.1", 22));
	cr_assert(udp(&n, "192.0.2.1", 9999));
}

Test(netpolicy, off_allows_nothing)
{
	struct supervisor_net n = {.check_tcp = true, .udp = SUPERVISOR_UDP_CLOSED};
	cr_assert_not(tcp(&n, "127.0.0.1", 80));
	cr_assert_not(udp(&n, "127.0.0.1", 53));
}

Test(netpolicy, host_list_reaches_the_proxy_on_127_0_0_1_only)
{
	struct supervisor_net n = {.check_tcp = true, .udp = SUPERVISOR_UDP_CLOSED, .proxy_port = 41917,
	                           .local_ports = {5432}, .nlocal = 1};
	cr_assert(tcp(&n, "127.0.0.1", 41917));
	cr_assert(tcp(&n, "::ffff:127.0.0.1", 41917));
	cr_assert_not(tcp(&n, "127.0.0.2", 41917));
	cr_assert_not(tcp(&n, "::ffff:127.0.0.2", 41917));
	cr_assert_not(tcp(&n, "0.0.0.0", 41917));
	cr_assert_not(tcp(&n, "::", 41917));
	cr_assert_not(tcp(&n, "::1", 41917));
	cr_assert_not(tcp(&n, "192.0.2.1", 41917));
	/* localhost:5432 on both loopbacks, nowhere else */
	cr_assert(tcp(&n, "127.0.0.1", 5432));
	cr_assert(tcp(&n, "::1", 5432));
	cr_assert_not(tcp(&n, "127.0.0.2", 5432));
	cr_assert_not(tcp(&n, "192.0.2.1", 5432));
	cr_assert_not(tcp(&n, "127.0.0.1", 443));
	cr_assert_not(udp(&n, "127.0.0.1", 41917));
}

Test(netpolicy, bare_ports_anywhere_and_udp_to_the_nameservers)
{
	struct supervisor_net n = {.check_tcp = true, .udp = SUPERVISOR_UDP_DNS, .any_ports = {443}, .nany = 1,
	                           .nnameservers = 2};
	n.nameservers[0] = addr("10.255.255.53");
	n.nameservers[1] = addr("fd00::53");
	cr_assert(tcp(&n, "192.0.2.1", 443));
	cr_assert(tcp(&n, "2001:db8::1", 443));
	cr_assert_not(tcp(&n, "192.0.2.1", 80));
	cr_assert(udp(&n, "10.255.255.53", 53));
	cr_assert(udp(&n, "fd00::53", 53));
	cr_assert_not(udp(&n, "10.255.255.53", 54));
	cr_assert_not(udp(&n, "10.255.255.54", 53));
	cr_assert_not(udp(&n, "1.1.1.1", 53));
}

Test(netpolicy, spec_tells_localhost_ports_from_bare_ones)
{
	struct sandbox_config c;
	sandbox_config_init(&c);
	cr_assert_eq(sandbox_parse_net(&c, "allow:443,localhost:5432,github.com,127.0.0.1:6379"), 0);
	cr_assert_eq(c.nports, 3);
	cr_assert(c.ports[0] == 443 && !c.port_local[0]);
	cr_assert(c.ports[1] == 5432 && c.port_local[1]);
	cr_assert(c.ports[2] == 6379 && c.port_local[2]);
	cr_assert_eq(c.hosts.len, 1);
	sandbox_config_free(&c);
}
