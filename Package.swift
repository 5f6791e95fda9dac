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
    ],
    targets: [
        .target(name: "MoaSolver"),
        .target(name: "MoaLayout", dependencies: ["MoaSolver"]),
        .target(name: "Moa", dependencies: ["MoaSolver", "MoaLayout"]),
        .systemLibrary(name: "CMoa", path: "Include"),
        .executableTarget(name: "moa-bench", dependencies: ["MoaSolver", "MoaLayout"]),
        .testTarget(name: "MoaSolverTests", dependencies: ["MoaSolver"]),
        .testTarget(name: "MoaLayoutTests", dependencies: ["MoaLayout"]),
        .testTarget(name: "MoaCTests", dependencies: ["Moa", "CMoa"]),
    ]
)
