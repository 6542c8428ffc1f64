/* Arithmetic expansion: operators, precedence, variables, errors. */
#include <criterion/criterion.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "shell/shell.h"
#include "shell/vars.h"
#include "shell/arith.h"

static struct shell sh;

static void setup(void)
{
	char *env[] = {NULL};
	shell_init(&sh, env);
}

static void teardown(void)
{
	shell_free(&sh);
}

TestSuite(arith, .init = setup, .fini = teardown);

static intmax_t eval_ok(const char *expr)
{
	intmax_t v = -12345;
	int r = arith_eval(&sh, expr, &v);
	cr_assert_eq(r, 0, "arith_eval(\"%s\") failed", expr);
	return v;
}

static void eval_fails(const char *expr)
{
	intmax_t v;
	cr_assert_eq(arith_eval(&sh, expr, &v), -1, "arith_eval(\"%s\") should fail", expr);
}

Test(arith, constants)
{
	cr_assert_eq(eval_ok("42"), 42);
	cr_assert_eq(eval_ok("0x1F"), 31);
	cr_assert_eq(eval_ok("010"), 8);
	cr_assert_eq(eval_ok("2#1010"), 10);
	cr_assert_eq(eval_ok("16#ff"), 255);
	cr_assert_eq(eval_ok("36#z"), 35);
	cr_assert_eq(eval_ok("64#_"), 63);
	cr_assert_eq(eval_ok(""), 0);
	cr_assert_eq(eval_ok("   7   "), 7);
}

Test(arith, precedence)
{
	cr_assert_eq(eval_ok("1 + 2 * 3"), 7);
	cr_assert_eq(eval_ok("(1 + 2) * 3"), 9);
	cr_assert_eq(eval_ok("10 - 4 - 3"), 3);
	cr_assert_eq(eval_ok("2 ** 3 ** 2"), 512);
	cr_assert_eq(eval_ok("-2 ** 2"), 4);
	cr_assert_eq(eval_ok("1 << 4 + 1"), 32);
	cr_assert_eq(eval_ok("1 < 2 == 1"), 1);
	cr_assert_eq(eval_ok("6 & 3 | 8 ^ 1"), 11);
	cr_assert_eq(eval_ok("1 ? 2 : 3"), 2);
	cr_assert_eq(eval_ok("0 ? 2 : 0 ? 3 : 4"), 4);
	cr_assert_eq(eval_ok("1, 2, 3"), 3);
	cr_assert_eq(eval_ok("!0 + ~0"), 0);
	cr_assert_eq(eval_ok("7 / 2"), 3);
	cr_assert_eq(eval_ok("-7 % 3"), -1);
	cr_assert_eq(eval_ok("1--1"), 2);
	cr_assert_eq(eval_ok("3 >= 3 && 2 <= 1 || 5 != 4"), 1);
}

Test(arith, variables_and_assignment)
{
	cr_assert_eq(eval_ok("x = 5"), 5);
	cr_assert_str_eq(vars_get(&sh, "x"), "5");
	cr_assert_eq(eval_ok("x += 2"), 7);
	cr_assert_eq(eval_ok("x *= 2"), 14);
	cr_assert_eq(eval_ok("x <<= 1"), 28);
	cr_assert_eq(eval_ok("x++"), 28);
	cr_assert_eq(eval_ok("x"), 29);
	cr_assert_eq(eval_ok("--x"), 28);
	cr_assert_eq(eval_ok("unset_var + 1"), 1);
	vars_set(&sh, "e", "x + 2", 0);
	cr_assert_eq(eval_ok("e * 2"), 60);
	cr_assert_eq(eval_ok("a = b = 3"), 3);
	cr_assert_str_eq(vars_get(&sh, "a"), "3");
	cr_assert_eq(eval_ok("arr[2] = 9"), 9);
	cr_assert_eq(eval_ok("arr[1+1] * 2"), 18);
	vars_set(&sh, "empty", "", 0);
	cr_assert_eq(eval_ok("empty"), 0);
}

Test(arith, short_circuit_has_no_side_effects)
{
	eval_ok("y = 1");
	cr_assert_eq(eval_ok("0 && (y = 5)"), 0);
	cr_assert_str_eq(vars_get(&sh, "y"), "1");
	cr_assert_eq(eval_ok("1 || y++"), 1);
	cr_assert_str_eq(vars_get(&sh, "y"), "1");
	cr_assert_eq(eval_ok("1 ? 7 : (y = 9)"), 7);
	cr_assert_str_eq(vars_get(&sh, "y"), "1");
	cr_assert_eq(eval_ok("0 && 1 / 0"), 0);
}

Test(arith, errors)
{
	eval_fails("1 / 0");
	eval_fails("5 % 0");
	eval_fails("1 +");
	eval_fails("(1 + 2");
	eval_fails("1 2");
	eval_fails("08");
	eval_fails("2#102");
	eval_fails("65#1");
	eval_fails("2 ** -1");
	eval_fails("= 3");
	vars_set(&sh, "self", "self + 1", 0);
	eval_fails("self");
}

Test(arith, never_crashes_on_deep_nesting)
{
	size_t n = 100000;
	char *s = malloc(2 * n + 2);
	memset(s, '(', n);
	s[n] = '1';
	memset(s + n + 1, ')', n);
	s[2 * n + 1] = '\0';
	eval_fails(s);
	memset(s, '-', 2 * n + 1);
	eval_fails(s);
	free(s);
}

Test(arith, overflow_wraps)
{
	cr_assert_eq(eval_ok("9223372036854775807 + 1"), INTMAX_MIN);
	cr_assert_eq(eval_ok("-9223372036854775807 - 1"), INTMAX_MIN);
	eval_ok("(-9223372036854775807 - 1) / -1");
	eval_ok("1 << 70");
}

Test(arith, integer_variables)
{
	cr_assert_eq(vars_set(&sh, "n", "3 + 4", VAR_INTEGER), 0);
	cr_assert_str_eq(vars_get(&sh, "n"), "7");
	cr_assert_eq(vars_set(&sh, "n", "n * 2", 0), 0);
	cr_assert_str_eq(vars_get(&sh, "n"), "14");
}
