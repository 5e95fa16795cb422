/* load/prefault.c: pages faulted in ahead keep what was written to them,
 * before and while the thread runs; NULL, a stopped thread and a forked
 * child are safe. */
#include "ordo_test.h"
#include "prefault.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#define SIZE ((size_t)24 << 20)

static uint8_t pattern(size_t i) { return (uint8_t)(i * 2654435761u >> 13); }

static void test_contents_stay(void **state)
{
    (void)state;
    uint8_t *buf = NULL;
    assert_int_equal(posix_memalign((void **)&buf, 2u << 20, SIZE), 0);
    for (size_t i = 0; i < SIZE / 3; i++) /* written before */
        buf[i] = pattern(i);
    ordo__prefault *p = ordo__prefault_start(buf, SIZE);
    ordo__prefault_ask(p, SIZE / 2);
    for (size_t i = SIZE / 3; i < SIZE; i++) { /* written while it runs, and past what was asked */
        buf[i] = pattern(i);
        if (i % (1u << 20) == 0)
            ordo__prefault_ask(p, i + (4u << 20));
    }
    ordo__prefault_ask(p, SIZE * 2); /* (past the region: up to its end) */
    ordo__prefault_ask(p, 1);        /* (asked already) */
    ordo__prefault_stop(p);
    for (size_t i = 0; i < SIZE; i++)
        if (buf[i] != pattern(i))
            fail_msg("byte %zu changed", i);
    ordo__prefault_ask(NULL, SIZE);
    ordo__prefault_stop(NULL);
    free(buf);
}

static void test_unaligned_region_is_refused(void **state)
{
    (void)state;
    uint8_t *buf = malloc(1u << 20);
    assert_non_null(buf);
    ordo__prefault *p = ordo__prefault_start(buf + 1, (1u << 20) - 1);
    assert_null(p); /* not page-aligned: the caller's first touches fault the pages in */
    free(buf);
}

/* A child forked while the thread runs has none: its ask and stop return
 * (they once waited on the parent's thread forever). */
static void test_forked_child(void **state)
{
    (void)state;
    uint8_t *buf = NULL;
    assert_int_equal(posix_memalign((void **)&buf, 2u << 20, SIZE), 0);
    ordo__prefault *p = ordo__prefault_start(buf, SIZE);
    ordo__prefault_ask(p, SIZE / 2);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        alarm(20); /* a hang fails the test, not the run */
        ordo__prefault_ask(p, SIZE);
        ordo__prefault_stop(p);
        _exit(0);
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    ordo__prefault_stop(p);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contents_stay),
        cmocka_unit_test(test_unaligned_region_is_refused),
        cmocka_unit_test(test_forked_child),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
