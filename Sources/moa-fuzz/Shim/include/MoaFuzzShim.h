// moa-fuzz: the one libFuzzer entry point the Swift harness calls.
//
// SwiftPM links executables with `--defsym main=<module>_main`, which breaks libFuzzer's own main; so the harness
// keeps its Swift main and hands control to libFuzzer through LLVMFuzzerRunDriver (in libclang_rt.fuzzer when
// built with -sanitize=fuzzer). Only called under `#if MOA_FUZZ`: a normal build never references the symbol.
#ifndef MOA_FUZZ_SHIM_H
#define MOA_FUZZ_SHIM_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

/* One input through the selected target (Swift, main.swift). */
int moa_fuzz_one(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
