// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Moa",
    products: [
        // libmoa.so: the C ABI (Include/moa.h). Link flags (static runtime, export map) live in the Makefile.
        .library(name: "moa", type: .dynamic, targets: ["Moa"]),
        .library(name: "MoaSolver", targets: ["MoaSolver"]),
        .library(name: "MoaLayout", targets: ["MoaLayout"]),
        .executable(name: "moa-bench", targets: ["moa-bench"]),
        .executable(name: "moa-fuzz", targets: ["moa-fuzz"]),
    ],
    targets: [
        .target(name: "MoaSolver"),
        .target(name: "MoaLayout", dependencies: ["MoaSolver"]),
        .target(name: "Moa", dependencies: ["MoaSolver", "MoaLayout"]),
        .systemLibrary(name: "CMoa", path: "Include"),
        .executableTarget(name: "moa-bench", dependencies: ["MoaSolver", "MoaLayout"]),
        // libFuzzer targets over the C API (mk/reliability.mk). Built with -DMOA_FUZZ and -sanitize=fuzzer it runs
        // libFuzzer; a normal build replays input files through the same checks (no libFuzzer needed).
        .target(name: "MoaFuzzShim", path: "Sources/moa-fuzz/Shim"),
        .executableTarget(name: "moa-fuzz", dependencies: ["Moa", "CMoa", "MoaFuzzShim"], path: "Sources/moa-fuzz/Harness"),
        .testTarget(name: "MoaSolverTests", dependencies: ["MoaSolver"]),
        .testTarget(name: "MoaLayoutTests", dependencies: ["MoaLayout"]),
        .testTarget(name: "MoaCTests", dependencies: ["Moa", "MoaLayout", "MoaSolver", "CMoa"]),
    ]
)
