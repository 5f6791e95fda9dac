// moa-fuzz: libFuzzer's entry points.
//
// The Swift main (main.swift) starts libFuzzer with LLVMFuzzerRunDriver. libclang_rt.fuzzer still brings its own
// main object into the link (crt1 asks for `main` before SwiftPM's `--defsym main=moa_fuzz_main` applies), and
// that object needs LLVMFuzzerTestOneInput; defined here, it forwards to the same Swift function, so either
// entry runs the harness. In a normal build nothing calls it.
#include "MoaFuzzShim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    return moa_fuzz_one(data, size);
}
