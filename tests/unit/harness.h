/* harness.h: the unit-test harness. Each tests/unit/test-<module>.c lists
 * its cases in a table and ends with SN_TEST_MAIN(cases); the binary prints
 * one line per failure and finally "N passed, N failed".
 *
 * To add a test: 1. a static void test_<behaviour>(void)  2. a T(...) row
 * in the file's table. CHECK records a failure and goes on; REQUIRE returns
 * from the case. Cases sharing a loaded fixture free it in a teardown given
 * to SN_TEST_MAIN_TEARDOWN: run after the cases, it is not counted. */
#ifndef SN_TEST_HARNESS_H
#define SN_TEST_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sn_test {
    const char *name;
    void (*fn)(void);
};

static int sn_test_failures_;

/* one line: the formatter would split the initialiser over four */
/* clang-format off */
#define T(fn) {#fn, fn}
/* clang-format on */

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            printf("  %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);  \
            sn_test_failures_++;                                               \
        }                                                                      \
    } while (0)

#define REQUIRE(cond)                                                          \
    do {                                                                       \
        if (!(cond)) {                                                         \
            printf("  %s:%d: required: %s\n", __FILE__, __LINE__, #cond);      \
            sn_test_failures_++;                                               \
            return;                                                            \
        }                                                                      \
    } while (0)

/* a and b within rel relative tolerance (or abs 1e-300 when both ~0) */
#define CHECK_NEAR(a, b, rel)                                                  \
    do {                                                                       \
        double a_ = (a), b_ = (b);                                             \
        double d_ = fabs(a_ - b_), m_ = fmax(fabs(a_), fabs(b_));              \
        if (!(d_ <= (rel)*m_ || d_ < 1e-300)) {                                \
            printf("  %s:%d: %s = %.10g, expected %s = %.10g (rel %g)\n",      \
                   __FILE__, __LINE__, #a, a_, #b, b_, (double)(rel));         \
            sn_test_failures_++;                                               \
        }                                                                      \
    } while (0)

#define CHECK_STR(a, b)                                                        \
    do {                                                                       \
        const char *a_ = (a), *b_ = (b);                                       \
        if (!a_ || !b_ || strcmp(a_, b_) != 0) {                               \
            printf("  %s:%d: %s = \"%s\", expected \"%s\"\n", __FILE__,        \
                   __LINE__, #a, a_ ? a_ : "(null)", b_ ? b_ : "(null)");      \
            sn_test_failures_++;                                               \
        }                                                                      \
    } while (0)

#define CHECK_CONTAINS(hay, needle)                                            \
    do {                                                                       \
        const char *h_ = (hay), *n_ = (needle);                                \
        if (!h_ || !strstr(h_, n_)) {                                          \
            printf("  %s:%d: \"%s\" does not contain \"%s\"\n", __FILE__,      \
                   __LINE__, h_ ? h_ : "(null)", n_);                          \
            sn_test_failures_++;                                               \
        }                                                                      \
    } while (0)

/* SN_SHARD=I/N in the environment (tests/run.sh, for a test marked
 * "runs: shards"): only the cases whose index is I modulo N, so that the
 * parts of a slow test run side by side. */
static int sn_test_shard_(size_t i)
{
    const char *s = getenv("SN_SHARD");
    unsigned long k, n;
    char *end;

    if (!s || !*s)
        return 1;
    k = strtoul(s, &end, 10);
    if (*end != '/')
        return 1;
    n = strtoul(end + 1, &end, 10);
    if (*end || n == 0)
        return 1;
    return i % n == k;
}

static int sn_test_run(const struct sn_test *cases, size_t n,
                       void (*teardown)(void), int argc, char **argv)
{
    int passed = 0, failed = 0;

    for (size_t i = 0; i < n; i++) {
        int before = sn_test_failures_;
        if (argc > 1 && !strstr(cases[i].name, argv[1]))
            continue;
        if (!sn_test_shard_(i))
            continue;
        cases[i].fn();
        if (sn_test_failures_ == before) {
            passed++;
        } else {
            failed++;
            printf("FAIL %s\n", cases[i].name);
        }
    }
    if (teardown)
        teardown();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

#define SN_TEST_MAIN_TEARDOWN(cases, teardown)                                 \
    int main(int argc, char **argv)                                            \
    {                                                                          \
        return sn_test_run(cases, sizeof(cases) / sizeof(cases[0]), teardown,  \
                           argc, argv);                                        \
    }

#define SN_TEST_MAIN(cases) SN_TEST_MAIN_TEARDOWN(cases, NULL)

#endif
