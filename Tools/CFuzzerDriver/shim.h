#ifndef SOCLOAD_CFUZZERDRIVER_SHIM_H
#define SOCLOAD_CFUZZERDRIVER_SHIM_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver, called from socload-fuzz's entry point in fuzzing builds only (the symbol
// comes from the sanitizer runtime that `-sanitize=fuzzer` links).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
