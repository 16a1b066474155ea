/*
 * fuzz.h - the libFuzzer entry point every tests/fuzz/fuzz_*.c defines.
 *
 * Each target is built twice: by `make fuzz` with clang and
 * -fsanitize=fuzzer,address,undefined (libFuzzer's main), and by `make unit`
 * with the project's compiler and tests/fuzz/driver.c as main, as the unit
 * test test_fuzz_NAME that replays tests/fuzz/regress/NAME/ (inputs that once
 * crashed) and tests/fuzz/corpus/NAME/ (small seeds).  A target reports a
 * broken invariant (a wrong number, not only a crash) with fuzz_fail(),
 * which aborts, so both builds see it.
 */
#ifndef NV_TESTS_FUZZ_H
#define NV_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Print "fuzz invariant broken: ..." to stderr and abort(). */
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* A NUL-terminated copy of data[0..size) (malloc; NULL when out of memory). */
char *fuzz_strndup(const uint8_t *data, size_t size);

#endif
